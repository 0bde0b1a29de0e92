import type { Context } from "hono";
import { changeReminderPolicy, ownReminderPolicy } from "../../../app/reminders/manageReminders.ts";
import { RemindersPage } from "../pages/schedules.tsx";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, type SignedInRoutes, session } from "./shared.tsx";

/**
 * `/dashboard/reminders`: the payment reminder policy (PATCH /api/reminder-policy's): reminders
 * on or off, each of its steps on or off, the cap per invoice. The steps' days stay the API's to
 * change.
 */
export const registerReminders: SignedInRoutes = (app, deps) => {
  const page = async (
    c: Context<DashboardEnv>,
    extra: { notice?: string; problem?: string },
    status: 200 | 400 = 200,
  ) =>
    c.html(
      <RemindersPage
        session={session(c)}
        policy={await ownReminderPolicy(deps, actorOf(c))}
        {...extra}
      />,
      status,
    );
  app.get("/reminders", (c) => page(c, { notice: c.req.query("notice") }));
  app.post("/reminders", async (c) => {
    const form = formOf(c);
    const actor = actorOf(c);
    const cap = (form.max_reminders ?? "").trim();
    // The API's rule for max_reminders (a whole number from 0 to 20), with its message.
    if (!/^\d{1,2}$/.test(cap) || Number(cap) > 20)
      return page(c, { problem: "At most this many reminders: must be from 0 to 20" }, 400);
    const current = await ownReminderPolicy(deps, actor);
    await changeReminderPolicy(deps, actor, {
      enabled: form.enabled === "on",
      steps: current.steps.map((step) => ({
        ...step,
        enabled: form[`step_${step.days}`] === "on",
      })),
      max_reminders: Number(cap),
    });
    return c.redirect("/dashboard/reminders?notice=saved", 303);
  });
};
