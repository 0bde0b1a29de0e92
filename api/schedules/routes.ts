import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ZodError } from "zod";
import { assertWebhookUrlAllowed } from "../../app/assertWebhookUrlAllowed.ts";
import { assertOwnEmail } from "../../app/authorize.ts";
import { CreateInvoiceResponseSchema } from "../../app/invoices/schema.ts";
import { assertKnownParams, enumListParam, pageOf, pageParams } from "../../app/lists/listQuery.ts";
import { systemClock } from "../../db/clock.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import {
  findSchedule,
  insertSchedule,
  listSchedules,
  lockSchedule,
  type ScheduleChange,
  type ScheduleRow,
  updateSchedule,
} from "../../db/queries/invoiceSchedules.ts";
import { SCHEDULE_STATUSES, type ScheduleStatus, scheduledDate } from "../../domain/schedule.ts";
import type { AppEnv } from "../appEnv.ts";
import { requireKey } from "../auth/authorize.ts";
import { actorOf, auditActor, type KeyIdentity } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError, fieldErrors, notFound, validationError } from "../errors.ts";
import { jsonBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import { calendarOf, runScheduleNow } from "./issue.ts";
import {
  CreateScheduleSchema,
  checkTemplate,
  createScheduleKnownKeys,
  type InvoiceTemplate,
  type Schedule,
  ScheduleIdParamSchema,
  ScheduleSchema,
  scheduleExample,
  templateOrThrow,
  UpdateScheduleSchema,
  updateScheduleKnownKeys,
} from "./schema.ts";

const security = [{ bearerAuth: [] }];
const tags = ["Invoice schedules"];
const body = <S extends z.ZodType>(schema: S) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

const ListQuerySchema = z.object({
  ...pageParams,
  status: enumListParam("status", SCHEDULE_STATUSES, "Only schedules with one of these statuses."),
});
const LIST_KEYS: readonly string[] = Object.keys(ListQuerySchema.shape);

const createScheduleRoute = createRoute({
  method: "post",
  path: "/api/invoice-schedules",
  tags,
  summary: "Create an invoice schedule",
  description:
    "Issues `invoice` as an ordinary invoice (numbered with the merchant's others, its PDF, deposit address, vendor email and webhooks) on each period's date, due `days_until_due` days later, until `end_date` or `count`. The template is validated exactly as `POST /api/invoices` validates a body (errors under `invoice.`). A period whose date has passed is issued by the worker within a minute; each period exactly once. A `write` key is needed.",
  security,
  middleware: [jsonBody],
  request: body(CreateScheduleSchema),
  responses: {
    201: jsonResponse("Created", ScheduleSchema),
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/api/invoice-schedules",
  tags,
  summary: "List your invoice schedules",
  description:
    "Newest first, a page at a time (`next_cursor` until the last page). A `read` key is enough.",
  security,
  request: { query: ListQuerySchema },
  responses: {
    200: jsonResponse(
      "A page of schedules",
      z.object({ data: z.array(ScheduleSchema), next_cursor: z.string().nullable() }),
      { data: [scheduleExample], next_cursor: null },
    ),
    ...errorResponses(400, 401),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/api/invoice-schedules/{id}",
  tags,
  summary: "Get an invoice schedule",
  security,
  request: { params: ScheduleIdParamSchema },
  responses: { 200: jsonResponse("The schedule", ScheduleSchema), ...errorResponses(401, 404) },
});

const updateRoute = createRoute({
  method: "patch",
  path: "/api/invoice-schedules/{id}",
  tags,
  summary: "Change an invoice schedule",
  description:
    "Its template (`invoice`, replaced whole and validated as on creation), `end_date`, `count` or `days_until_due`, for the invoices not yet issued. The interval and start date are fixed: cancel and create another schedule to change them. A cancelled schedule is a 409.",
  security,
  middleware: [jsonBody],
  request: { params: ScheduleIdParamSchema, ...body(UpdateScheduleSchema) },
  responses: {
    200: jsonResponse("The changed schedule", ScheduleSchema),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415),
  },
});

const stateRoute = (action: "pause" | "resume" | "cancel", description: string) =>
  createRoute({
    method: "post",
    path: `/api/invoice-schedules/{id}/${action}`,
    tags,
    summary: `${action[0]?.toUpperCase()}${action.slice(1)} an invoice schedule`,
    description,
    security,
    request: { params: ScheduleIdParamSchema },
    responses: {
      200: jsonResponse("The schedule", ScheduleSchema),
      ...errorResponses(401, 403, 404, 409),
    },
  });

const pauseRoute = stateRoute(
  "pause",
  "Nothing is issued until it is resumed. Pausing a paused schedule changes nothing; a cancelled or completed one is a 409.",
);
const resumeRoute = stateRoute(
  "resume",
  "Issues again: periods whose dates passed while paused are issued once each, dated their own periods. A cancelled or completed one is a 409.",
);
const cancelRoute = stateRoute(
  "cancel",
  "For good: nothing more is issued, run-now included. The invoices issued stay as they are.",
);

const runRoute = createRoute({
  method: "post",
  path: "/api/invoice-schedules/{id}/run",
  tags,
  summary: "Issue a schedule's next invoice now",
  description:
    "Bills the customer today: the next period's invoice is issued now (dated today, due `days_until_due` later) and the schedule moves past that period. Answers exactly as `POST /api/invoices` does. An active or paused schedule; a cancelled one is a 409 `schedule_cancelled`, a completed one `schedule_completed`.",
  security,
  request: { params: ScheduleIdParamSchema },
  responses: {
    201: jsonResponse("The invoice issued", CreateInvoiceResponseSchema),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

/** A schedule as the API shows it. */
export function presentSchedule(row: ScheduleRow): Schedule {
  return {
    schedule_id: row.id,
    status: row.status,
    interval: row.frequency,
    n: row.every_n_days,
    start_date: row.start_date,
    end_date: row.end_date,
    count: row.max_count,
    days_until_due: row.days_until_due,
    next_issue_date: row.status === "cancelled" ? null : row.next_issue_date,
    issued_count: row.issued_count,
    last_error: row.last_error,
    invoice: row.template,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The template's own checks past its schema, as POST /api/invoices makes them. */
function assertTemplateAllowed(
  deps: AppDeps,
  identity: KeyIdentity,
  template: InvoiceTemplate,
): void {
  assertOwnEmail(identity, template.merchant_email);
  assertWebhookUrlAllowed(deps, template.webhook_url, "invoice.webhook_url");
}

/** Validation of a body with a template: every failing field at once, the template's included. */
const withTemplateHook =
  (knownKeys: (path: string) => readonly string[]) =>
  (result: { success: boolean; error?: unknown; data?: unknown }): undefined => {
    if (result.success) return undefined;
    const fields = fieldErrors(result.error as ZodError, result.data, knownKeys);
    const input = result.data as Record<string, unknown> | undefined;
    const invoice = input && typeof input === "object" ? input.invoice : undefined;
    const template = invoice === undefined ? { fields: [] } : checkTemplate(invoice);
    throw validationError([
      ...fields.filter((f) => !f.path.startsWith("invoice")),
      ...template.fields,
    ]);
  };

export function registerScheduleRoutes(app: Router, deps: AppDeps): void {
  const clock = deps.clock ?? systemClock;
  const own = async (c: Context<AppEnv>, id: string) => {
    const row = await findSchedule(deps.db, requireKey(c).merchantId, id);
    if (!row) throw notFound("invoice schedule");
    return row;
  };
  /** Changes a schedule of the caller's under its row lock, audited as `action`. */
  const change = async (
    c: Context<AppEnv>,
    id: string,
    action: string,
    decide: (row: ScheduleRow) => ScheduleChange | null,
  ) => {
    const identity = requireKey(c);
    const actor = actorOf(c);
    await own(c, id);
    return deps.db.transaction().execute(async (trx) => {
      const row = await lockSchedule(trx, id);
      if (!row) throw notFound("invoice schedule");
      const changes = decide(row);
      if (changes === null) return row;
      const updated = await updateSchedule(trx, id, changes);
      await recordAudit(trx, {
        merchantId: identity.merchantId,
        ...auditActor(identity),
        action,
        target: id,
        requestId: actor.requestId,
      });
      return updated;
    });
  };
  const refuse = (row: ScheduleRow, statuses: readonly ScheduleStatus[], verb: string) => {
    if (statuses.includes(row.status))
      throw new ApiError(
        409,
        `schedule_${row.status}`,
        `a ${row.status} schedule cannot be ${verb}`,
      );
  };

  app.openapi<typeof createScheduleRoute>(
    createScheduleRoute,
    async (c) => {
      const input = c.req.valid("json");
      const identity = requireKey(c);
      const template = templateOrThrow(input.invoice);
      assertTemplateAllowed(deps, identity, template);
      const frequency = input.interval;
      const calendar = {
        frequency,
        everyNDays: input.n ?? null,
        startDate: input.start_date,
        endDate: input.end_date ?? null,
        maxCount: input.count ?? null,
      };
      const row = await deps.db.transaction().execute(async (trx) => {
        const created = await insertSchedule(trx, {
          merchantId: identity.merchantId,
          keyId: identity.keyId,
          template,
          frequency,
          everyNDays: calendar.everyNDays,
          startDate: calendar.startDate,
          endDate: calendar.endDate,
          maxCount: calendar.maxCount,
          daysUntilDue: input.days_until_due,
          nextIssueDate: scheduledDate(calendar, 0),
        });
        await recordAudit(trx, {
          merchantId: identity.merchantId,
          ...auditActor(identity),
          action: "schedule.created",
          target: created.id,
          requestId: actorOf(c).requestId,
        });
        return created;
      });
      deps.log.info("invoice schedule created", { schedule_id: row.id, interval: frequency });
      return c.json(presentSchedule(row), 201);
    },
    withTemplateHook(createScheduleKnownKeys),
  );

  app.openapi(listRoute, async (c) => {
    const identity = requireKey(c);
    const query = c.req.valid("query");
    assertKnownParams(c.req.query(), LIST_KEYS);
    const page = pageOf("schedules", query);
    const statuses = query.status ? (query.status.split(",") as ScheduleStatus[]) : undefined;
    const result = await listSchedules(deps.db, identity.merchantId, { statuses }, page);
    return c.json({ data: result.rows.map(presentSchedule), next_cursor: result.nextCursor }, 200);
  });

  app.openapi(getRoute, async (c) =>
    c.json(presentSchedule(await own(c, c.req.valid("param").id)), 200),
  );

  app.openapi<typeof updateRoute>(
    updateRoute,
    async (c) => {
      const input = c.req.valid("json");
      const identity = requireKey(c);
      const template = input.invoice === undefined ? undefined : templateOrThrow(input.invoice);
      if (template) assertTemplateAllowed(deps, identity, template);
      const row = await change(c, c.req.valid("param").id, "schedule.updated", (current) => {
        refuse(current, ["cancelled"], "changed");
        const calendar = {
          ...calendarOf(current),
          ...(input.end_date !== undefined ? { endDate: input.end_date } : {}),
          ...(input.count !== undefined ? { maxCount: input.count } : {}),
        };
        const next = scheduledDate(calendar, current.next_period);
        // A new end or count may finish the schedule, or give a completed one periods again.
        const status: ScheduleStatus =
          next === null ? "completed" : current.status === "completed" ? "active" : current.status;
        return {
          ...(template ? { template } : {}),
          ...(input.end_date !== undefined ? { end_date: input.end_date } : {}),
          ...(input.count !== undefined ? { max_count: input.count } : {}),
          ...(input.days_until_due !== undefined ? { days_until_due: input.days_until_due } : {}),
          next_issue_date: next,
          status,
        };
      });
      return c.json(presentSchedule(row), 200);
    },
    withTemplateHook(updateScheduleKnownKeys),
  );

  app.openapi(pauseRoute, async (c) => {
    const row = await change(c, c.req.valid("param").id, "schedule.paused", (current) => {
      refuse(current, ["cancelled", "completed"], "paused");
      return current.status === "paused" ? null : { status: "paused" };
    });
    return c.json(presentSchedule(row), 200);
  });

  app.openapi(resumeRoute, async (c) => {
    const row = await change(c, c.req.valid("param").id, "schedule.resumed", (current) => {
      refuse(current, ["cancelled", "completed"], "resumed");
      return current.status === "active" ? null : { status: "active", last_error: null };
    });
    return c.json(presentSchedule(row), 200);
  });

  app.openapi(cancelRoute, async (c) => {
    const row = await change(c, c.req.valid("param").id, "schedule.cancelled", (current) =>
      current.status === "cancelled" ? null : { status: "cancelled" },
    );
    return c.json(presentSchedule(row), 200);
  });

  app.openapi(runRoute, async (c) => {
    const row = await own(c, c.req.valid("param").id);
    const invoice = await runScheduleNow(deps, row, await clock.today(), actorOf(c));
    deps.log.info("invoice schedule run", { schedule_id: row.id, invoice_id: invoice.invoice_id });
    return c.json(invoice, 201);
  });
}
