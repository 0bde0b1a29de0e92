import type { Context } from "hono";
import type { MerchantActor } from "../../../app/actor.ts";
import { merchantDefaults } from "../../../app/merchants/settings.ts";
import {
  cancelSchedule,
  changeSchedule,
  createSchedule,
  ownSchedule,
  ownScheduleInvoices,
  ownSchedules,
  pauseSchedule,
  presentSchedule,
  resumeSchedule,
  runOwnScheduleNow,
} from "../../../app/schedules/manageSchedules.ts";
import {
  CreateScheduleSchema,
  checkTemplate,
  createScheduleKnownKeys,
  type Schedule,
  UpdateScheduleSchema,
  updateScheduleKnownKeys,
} from "../../../app/schedules/schema.ts";
import { utcToday } from "../../../domain/invoiceStatus.ts";
import { decodeListCursor } from "../../../domain/listCursor.ts";
import { type FormFields, formToBody } from "../forms.ts";
import {
  blankInvoiceForm,
  invoiceBody,
  NEW_INVOICE_TEXT,
  refusedState,
  submittedLines,
  submittedState,
} from "../invoiceForm.ts";
import type { FormState } from "../pages/formFields.tsx";
import { type ScheduleEditing, ScheduleFormPage } from "../pages/scheduleFormPage.tsx";
import { every, SchedulePage, SchedulesPage } from "../pages/schedules.tsx";
import { attempt, type FormRefusal, type Outcome, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, PAGE_SIZE, type SignedInRoutes, session } from "./shared.tsx";

/**
 * The template's text fields: a new invoice's (its currency too), but its dates, which the
 * schedule sets.
 */
const TEMPLATE_TEXT = NEW_INVOICE_TEXT.filter((key) => key !== "issue_date" && key !== "due_date");

/** Fields the API takes as whole numbers: a JSON number when typed as one, else as typed. */
const wholeNumbers = (form: FormFields, keys: readonly string[]) =>
  Object.fromEntries(
    keys.flatMap((key) => {
      const typed = form[key]?.trim();
      if (!typed) return [];
      return [[key, /^\d{1,9}$/.test(typed) ? Number(typed) : typed]];
    }),
  );

/** The schema's and the template's field messages, as one refusal. */
const refusedFields = (
  input: { ok: true } | FormRefusal,
  templateFields: { path: string; message: string }[],
): FormRefusal => ({
  ok: false,
  status: 400,
  message: "validation failed",
  fields: {
    ...(input.ok ? {} : input.fields),
    ...Object.fromEntries(templateFields.map((f) => [f.path, f.message])),
  },
});

const editingOf = (schedule: Schedule): ScheduleEditing => ({
  id: schedule.schedule_id,
  every: every(schedule),
  startDate: schedule.start_date,
});

/**
 * `/dashboard/schedules`: the invoice schedules, one schedule's page (its next date, the invoices
 * it issued) and its buttons: pause, resume, cancel, issue the next invoice now; and a new
 * schedule's form (the invoice form's cards and a calendar), on POST /api/invoice-schedules' code.
 */
export const registerSchedules: SignedInRoutes = (app, deps) => {
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

  app.get("/schedules/new", async (c) => {
    const defaults = await merchantDefaults(deps, actorOf(c));
    const state = blankInvoiceForm(defaults, {
      interval: "monthly",
      start_date: utcToday(),
      days_until_due: "30",
    });
    return c.html(<ScheduleFormPage session={session(c)} state={state} />);
  });
  app.post("/schedules/new", (c) =>
    submitSchedule(c, undefined, async (body) => {
      // POST /api/invoice-schedules' checks: its schema, then the template as POST /api/invoices.
      const input = validated(CreateScheduleSchema, body, createScheduleKnownKeys);
      const checked = checkTemplate(body.invoice);
      if (!input.ok || !checked.template) return refusedFields(input, checked.fields);
      const template = checked.template;
      return attempt(async () => ({
        row: await createSchedule(deps, actorOf(c), input.data, template),
        notice: "created",
      }));
    }),
  );

  app.get("/schedules/:id/edit", async (c) => {
    const shown = await attempt(async () => ({
      row: await ownSchedule(deps, actorOf(c), c.req.param("id")),
    }));
    if (!shown.ok) return notFound(c, "schedule");
    const schedule = presentSchedule(shown.row);
    if (schedule.status === "cancelled")
      return schedulePage(
        c,
        { problem: "Not changed: a cancelled schedule cannot be changed." },
        409,
      );
    const template = shown.row.template as Record<string, unknown>;
    const lines = (Array.isArray(template.line_items) ? template.line_items : []).map(
      (line: Record<string, unknown>) => ({
        description: String(line.description ?? ""),
        quantity: String(line.quantity ?? ""),
        unit_price: String(line.unit_price ?? ""),
        tax_rate: typeof line.tax_rate === "string" ? line.tax_rate : "",
        tax_category: typeof line.tax_category === "string" ? line.tax_category : "",
      }),
    );
    const values = Object.fromEntries(
      TEMPLATE_TEXT.flatMap((key) =>
        typeof template[key] === "string" ? [[key, template[key] as string]] : [],
      ),
    );
    const state = {
      ...submittedState({}, lines, {}),
      values: {
        ...values,
        send_now: template.send_now === false ? "false" : "true",
        days_until_due: String(schedule.days_until_due),
        end_date: schedule.end_date ?? "",
        count: schedule.count === null ? "" : String(schedule.count),
      },
    };
    return c.html(
      <ScheduleFormPage session={session(c)} state={state} editing={editingOf(schedule)} />,
    );
  });
  app.post("/schedules/:id/edit", async (c) => {
    const id = c.req.param("id");
    const shown = await attempt(async () => ({ row: await ownSchedule(deps, actorOf(c), id) }));
    if (!shown.ok) return notFound(c, "schedule");
    const editing = editingOf(presentSchedule(shown.row));
    return submitSchedule(c, editing, async (body) => {
      // PATCH /api/invoice-schedules/{id}'s checks; an emptied end or count clears it.
      const change = {
        invoice: body.invoice,
        days_until_due: body.days_until_due,
        end_date: body.end_date ?? null,
        count: body.count ?? null,
      };
      const input = validated(UpdateScheduleSchema, change, updateScheduleKnownKeys);
      const checked = checkTemplate(change.invoice);
      if (!input.ok || !checked.template) return refusedFields(input, checked.fields);
      const { invoice: _template, ...rest } = input.data;
      const template = checked.template;
      return attempt(async () => ({
        row: await changeSchedule(deps, actorOf(c), id, rest, template),
        notice: "saved",
      }));
    });
  });

  /**
   * The schedule form's submission: its own round trips (a line added or removed), else `save`
   * with the API's body, then the schedule's page, or the form again with the API's messages at
   * its fields.
   */
  const submitSchedule = async (
    c: Context<DashboardEnv>,
    editing: ScheduleEditing | undefined,
    save: (
      body: Record<string, unknown>,
    ) => Promise<Outcome<{ row: { id: string }; notice: string }>>,
  ) => {
    const form = formOf(c);
    const { lines, create } = submittedLines(form);
    const render = (state: FormState, status: 200 | 400 = 200) =>
      c.html(<ScheduleFormPage session={session(c)} state={state} editing={editing} />, status);
    if (!create) return render(submittedState(form, lines, {}));
    const email = c.get("signedIn").identity.merchantEmail;
    const saved = await save({
      ...formToBody(form, ["interval", "start_date", "end_date"]),
      ...wholeNumbers(form, ["n", "count", "days_until_due"]),
      invoice: invoiceBody(form, lines, email, TEMPLATE_TEXT),
    });
    if (saved.ok)
      return c.redirect(`/dashboard/schedules/${saved.row.id}?notice=${saved.notice}`, 303);
    if (saved.status === 404) return notFound(c, "schedule");
    // The template's messages are the API's `invoice.…` paths: the form's fields lack the prefix.
    const fields = Object.fromEntries(
      Object.entries(saved.fields).map(([path, message]) => [
        path.startsWith("invoice.") ? path.slice("invoice.".length) : path,
        message,
      ]),
    );
    return render(refusedState(form, lines, fields, saved.message), 400);
  };

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

  /**
   * A schedule's button: `change` (one of app/schedules' use cases) on the schedule of the path,
   * then its page with `notice`; refused, its page saying why it was not `verb`.
   */
  const button =
    (
      verb: string,
      notice: string,
      change: (d: typeof deps, actor: MerchantActor, id: string) => Promise<unknown>,
    ) =>
    async (c: Context<DashboardEnv>) => {
      const id = c.req.param("id") ?? "";
      const done = await attempt(async () => ({ result: await change(deps, actorOf(c), id) }));
      if (done.ok) return c.redirect(`/dashboard/schedules/${id}?notice=${notice}`, 303);
      if (done.status === 404) return notFound(c, "schedule");
      return schedulePage(
        c,
        { problem: `Not ${verb}: ${done.message}.` },
        done.status === 429 ? 429 : 409,
      );
    };
  app.post("/schedules/:id/pause", button("paused", "paused", pauseSchedule));
  app.post("/schedules/:id/resume", button("resumed", "resumed", resumeSchedule));
  app.post("/schedules/:id/cancel", button("cancelled", "cancelled", cancelSchedule));
  app.post("/schedules/:id/run", button("issued", "run", runOwnScheduleNow));
};
