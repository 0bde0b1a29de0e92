import { z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { CreateInvoiceResponseSchema } from "../../app/invoices/schema.ts";
import { enumListParam, pageParams } from "../../app/lists/listQuery.ts";
import {
  cancelSchedule,
  changeSchedule,
  createSchedule,
  ownSchedule,
  ownSchedules,
  pauseSchedule,
  presentSchedule,
  resumeSchedule,
  runOwnScheduleNow,
} from "../../app/schedules/manageSchedules.ts";
import {
  CreateScheduleSchema,
  checkTemplate,
  createScheduleKnownKeys,
  ScheduleIdParamSchema,
  ScheduleSchema,
  scheduleExample,
  templateOrThrow,
  UpdateScheduleSchema,
  updateScheduleKnownKeys,
} from "../../app/schedules/schema.ts";
import { SCHEDULE_STATUSES, type ScheduleStatus } from "../../domain/schedule.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { fieldErrors, validationError } from "../errors.ts";
import { listRequest, listRoute, pageBody, pageResponse } from "../lists/listRoute.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router } from "../openapi.ts";

const tags = ["Invoice schedules"];

const ListQuerySchema = z.object({
  ...pageParams,
  status: enumListParam("status", SCHEDULE_STATUSES, "Only schedules with one of these statuses."),
});
const LIST_KEYS: readonly string[] = Object.keys(ListQuerySchema.shape);

const createScheduleRoute = keyRoute({
  method: "post",
  path: "/api/invoice-schedules",
  tags,
  summary: "Create an invoice schedule",
  description:
    "Issues `invoice` as an ordinary invoice (numbered with the merchant's others, its PDF, deposit address, vendor email and webhooks) on each period's date, due `days_until_due` days later, until `end_date` or `count`. A `start_date` in the past starts at the current period unless `backfill` is true (every past period, at most 12). Dates are in the years 1970 to 9000. The template is validated exactly as `POST /api/invoices` validates a body (errors under `invoice.`). A period whose date has passed is issued by the worker within a minute; each period exactly once. A `write` key is needed.",
  middleware: [jsonBody],
  request: jsonRequestBody(CreateScheduleSchema),
  responses: {
    201: jsonResponse("Created", ScheduleSchema),
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const schedulesRoute = listRoute({
  path: "/api/invoice-schedules",
  tags,
  summary: "List your invoice schedules",
  description:
    "Newest first, a page at a time (`next_cursor` until the last page). A `read` key is enough.",
  query: ListQuerySchema,
  response: pageResponse("schedules", ScheduleSchema, scheduleExample),
});

const getRoute = keyRoute({
  method: "get",
  path: "/api/invoice-schedules/{id}",
  tags,
  summary: "Get an invoice schedule",
  request: { params: ScheduleIdParamSchema },
  responses: { 200: jsonResponse("The schedule", ScheduleSchema), ...errorResponses(401, 404) },
});

const updateRoute = keyRoute({
  method: "patch",
  path: "/api/invoice-schedules/{id}",
  tags,
  summary: "Change an invoice schedule",
  description:
    "Its template (`invoice`, replaced whole and validated as on creation), `end_date`, `count` or `days_until_due`, for the invoices not yet issued. The interval and start date are fixed: cancel and create another schedule to change them. A cancelled schedule is a 409.",
  middleware: [jsonBody],
  request: { params: ScheduleIdParamSchema, ...jsonRequestBody(UpdateScheduleSchema) },
  responses: {
    200: jsonResponse("The changed schedule", ScheduleSchema),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415),
  },
});

const stateRoute = (action: "pause" | "resume" | "cancel", description: string) =>
  keyRoute({
    method: "post",
    path: `/api/invoice-schedules/{id}/${action}`,
    tags,
    summary: `${action[0]?.toUpperCase()}${action.slice(1)} an invoice schedule`,
    description,
    request: { params: ScheduleIdParamSchema },
    responses: {
      200: jsonResponse("The schedule", ScheduleSchema),
      // Cancelling is idempotent (a cancelled or completed schedule answers 200): no 409.
      ...(action === "cancel" ? errorResponses(401, 403, 404) : errorResponses(401, 403, 404, 409)),
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

const runRoute = keyRoute({
  method: "post",
  path: "/api/invoice-schedules/{id}/run",
  tags,
  summary: "Issue a schedule's next invoice now",
  description:
    "Bills the customer today: the next period's invoice is issued now (dated today, due `days_until_due` later) and the schedule moves past that period. Answers exactly as `POST /api/invoices` does. An active or paused schedule; a cancelled one is a 409 `schedule_cancelled`, a completed one `schedule_completed`, and a run that loses its period to another run at the same moment a 409 `schedule_busy`. Charged to the invoice-creation budget of `POST /api/invoices` (one budget per client address: 429 `rate_limited`).",
  request: { params: ScheduleIdParamSchema },
  responses: {
    201: jsonResponse("The invoice issued", CreateInvoiceResponseSchema),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

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
  app.openapi<typeof createScheduleRoute>(
    createScheduleRoute,
    async (c) => {
      const { invoice, ...input } = c.req.valid("json");
      const actor = merchantActorOf(c);
      const row = await createSchedule(deps, actor, input, templateOrThrow(invoice));
      return c.json(presentSchedule(row), 201);
    },
    withTemplateHook(createScheduleKnownKeys),
  );

  app.openapi(schedulesRoute, async (c) => {
    const query = c.req.valid("query");
    const { actor, page } = listRequest(c, "schedules", query, LIST_KEYS);
    const statuses = query.status ? (query.status.split(",") as ScheduleStatus[]) : undefined;
    const result = await ownSchedules(deps, actor, { statuses }, page);
    return c.json(pageBody(result, presentSchedule), 200);
  });

  app.openapi(getRoute, async (c) =>
    c.json(
      presentSchedule(await ownSchedule(deps, merchantActorOf(c), c.req.valid("param").id)),
      200,
    ),
  );

  app.openapi<typeof updateRoute>(
    updateRoute,
    async (c) => {
      const { invoice, ...input } = c.req.valid("json");
      const actor = merchantActorOf(c);
      const template = invoice === undefined ? undefined : templateOrThrow(invoice);
      const row = await changeSchedule(deps, actor, c.req.valid("param").id, input, template);
      return c.json(presentSchedule(row), 200);
    },
    withTemplateHook(updateScheduleKnownKeys),
  );

  /** A state change of stateRoute's: `change` on the schedule, answered with the schedule then. */
  const registerStateChange = (route: typeof pauseRoute, change: typeof pauseSchedule) =>
    app.openapi(route, async (c) =>
      c.json(presentSchedule(await change(deps, merchantActorOf(c), c.req.valid("param").id)), 200),
    );
  registerStateChange(pauseRoute, pauseSchedule);
  registerStateChange(resumeRoute, resumeSchedule);
  registerStateChange(cancelRoute, cancelSchedule);

  app.openapi(runRoute, async (c) =>
    c.json(await runOwnScheduleNow(deps, merchantActorOf(c), c.req.valid("param").id), 201),
  );
}
