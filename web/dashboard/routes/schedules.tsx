import type { Context } from "hono";
import {
  cancelSchedule,
  ownSchedule,
  ownScheduleInvoices,
  ownSchedules,
  pauseSchedule,
  presentSchedule,
  resumeSchedule,
  runOwnScheduleNow,
} from "../../../app/schedules/manageSchedules.ts";
import { decodeListCursor } from "../../../domain/listCursor.ts";
import { SchedulePage, SchedulesPage } from "../pages/schedules.tsx";
import { attempt } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import {
  actorOf,
  type DashboardDeps,
  notFound,
  PAGE_SIZE,
  type SignedInApp,
  session,
} from "./shared.tsx";

/**
 * `/dashboard/schedules`: the invoice schedules, one schedule's page (its next date, the invoices
 * it issued) and its buttons: pause, resume, cancel, issue the next invoice now. Creating one is
 * the API's (POST /api/invoice-schedules).
 */
export function registerSchedules(app: SignedInApp, deps: DashboardDeps): void {
  app.get("/schedules", async (c) => {
    const cursor = c.req.query("cursor");
    const after = cursor ? decodeListCursor("schedules", cursor) : undefined;
    const result = await ownSchedules(
      deps,
      actorOf(c),
      {},
      { limit: PAGE_SIZE, ...(after ? { after } : {}) },
    );
    return c.html(
      <SchedulesPage
        session={session(c)}
        schedules={result.rows.map(presentSchedule)}
        older={result.nextCursor}
      />,
    );
  });

  const schedulePage = async (
    c: Context<DashboardEnv>,
    extra: { notice?: string; problem?: string },
    status: 200 | 400 | 409 | 429 = 200,
  ) => {
    const id = c.req.param("id") ?? "";
    const shown = await attempt(async () => ({
      row: await ownSchedule(deps, actorOf(c), id),
      invoices: await ownScheduleInvoices(deps, actorOf(c), id),
    }));
    if (!shown.ok) return notFound(c, "schedule");
    return c.html(
      <SchedulePage
        session={session(c)}
        schedule={presentSchedule(shown.row)}
        invoices={shown.invoices}
        {...extra}
      />,
      status,
    );
  };
  app.get("/schedules/:id", (c) => schedulePage(c, { notice: c.req.query("notice") }));

  const button =
    (
      verb: string,
      notice: string,
      run: (id: string, c: Context<DashboardEnv>) => Promise<unknown>,
    ) =>
    async (c: Context<DashboardEnv>) => {
      const id = c.req.param("id") ?? "";
      const done = await attempt(async () => ({ result: await run(id, c) }));
      if (done.ok) return c.redirect(`/dashboard/schedules/${id}?notice=${notice}`, 303);
      if (done.status === 404) return notFound(c, "schedule");
      return schedulePage(
        c,
        { problem: `Not ${verb}: ${done.message}.` },
        done.status === 429 ? 429 : 409,
      );
    };
  app.post(
    "/schedules/:id/pause",
    button("paused", "paused", (id, c) => pauseSchedule(deps, actorOf(c), id)),
  );
  app.post(
    "/schedules/:id/resume",
    button("resumed", "resumed", (id, c) => resumeSchedule(deps, actorOf(c), id)),
  );
  app.post(
    "/schedules/:id/cancel",
    button("cancelled", "cancelled", (id, c) => cancelSchedule(deps, actorOf(c), id)),
  );
  app.post(
    "/schedules/:id/run",
    button("issued", "run", (id, c) => runOwnScheduleNow(deps, actorOf(c), id)),
  );
}
