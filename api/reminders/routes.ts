import { z } from "@hono/zod-openapi";
import { InvoiceIdParamSchema } from "../../app/invoices/schema.ts";
import { rule } from "../../app/lists/listQuery.ts";
import {
  changeReminderPolicy,
  ownReminderPolicy,
  remindNow,
} from "../../app/reminders/manageReminders.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  DEFAULT_REMINDER_POLICY,
  MAX_REMINDER_STEPS,
  REMINDER_GAP_HOURS,
  REMINDER_STEP_MAX_DAYS,
  REMINDER_STEP_MIN_DAYS,
  REMINDERS_PER_CUSTOMER_PER_DAY,
  type ReminderPolicy,
} from "../../domain/reminders.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";

const StepSchema = z
  .strictObject({
    days: z
      .number(rule("invalid_number", "must be a whole number of days"))
      .int(rule("invalid_number", "must be a whole number of days"))
      .min(
        REMINDER_STEP_MIN_DAYS,
        rule("out_of_range", `must be from ${REMINDER_STEP_MIN_DAYS} to ${REMINDER_STEP_MAX_DAYS}`),
      )
      .max(
        REMINDER_STEP_MAX_DAYS,
        rule("out_of_range", `must be from ${REMINDER_STEP_MIN_DAYS} to ${REMINDER_STEP_MAX_DAYS}`),
      )
      .openapi({ description: "Days after the due date (negative: before it; 0: on it)." }),
    enabled: z.boolean(rule("invalid_boolean", "must be true or false")),
  })
  .openapi("ReminderStep");

/** The example of a policy: the defaults every account starts with. */
const policyExample: ReminderPolicy = DEFAULT_REMINDER_POLICY;

const PolicySchema = z
  .object({
    enabled: z.boolean().openapi({ description: "Off: no automatic reminder." }),
    steps: z.array(StepSchema),
    max_reminders: z.number().openapi({ description: "Automatic reminders per invoice at most." }),
  })
  .openapi("ReminderPolicy", { example: policyExample });

const UpdatePolicySchema = z
  .strictObject({
    enabled: z.boolean(rule("invalid_boolean", "must be true or false")).optional(),
    steps: z
      .array(StepSchema)
      .max(MAX_REMINDER_STEPS, rule("too_many", `must have at most ${MAX_REMINDER_STEPS} steps`))
      .refine(
        (steps) => new Set(steps.map((s) => s.days)).size === steps.length,
        rule("duplicate", "must not name the same day twice"),
      )
      .optional()
      .openapi({ description: "Replaces every step." }),
    max_reminders: z
      .number(rule("invalid_number", "must be a whole number"))
      .int(rule("invalid_number", "must be a whole number"))
      .min(0, rule("out_of_range", "must be from 0 to 20"))
      .max(20, rule("out_of_range", "must be from 0 to 20"))
      .optional(),
  })
  .openapi("UpdateReminderPolicyRequest", {
    example: {
      steps: [
        { days: -3, enabled: true },
        { days: 0, enabled: true },
        { days: 7, enabled: false },
        { days: 14, enabled: true },
      ],
      max_reminders: 3,
    },
  });

const getPolicyRoute = keyRoute({
  method: "get",
  path: "/api/reminder-policy",
  tags: ["Reminders"],
  summary: "Your payment reminder policy",
  description:
    "When the vendors of your open invoices are reminded by email (the invoice link, the amount still due, the PDF): by default 3 days before the due date, on it, 7 and 14 days after, at most 4 per invoice. A `read` key is enough.",
  responses: { 200: jsonResponse("The policy", PolicySchema), ...errorResponses(401) },
});

const patchPolicyRoute = keyRoute({
  method: "patch",
  path: "/api/reminder-policy",
  tags: ["Reminders"],
  summary: "Change your payment reminder policy",
  description:
    "Fields left out are unchanged; `steps` replaces every step. Audited. A `write` key is needed.",
  middleware: [jsonBody],
  request: jsonRequestBody(UpdatePolicySchema),
  responses: {
    200: jsonResponse("The policy", PolicySchema),
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const ReminderSchema = z
  .object({
    reminder_id: z.uuid(),
    invoice_id: z.uuid(),
    amount_due: z.string().openapi({ description: "What the email asks for, in USDC." }),
    sent_at: z.string(),
  })
  .openapi("Reminder", {
    example: {
      reminder_id: "0e9a4c1b-7d2f-4e3a-8b5c-6d7e8f9a0b1c",
      invoice_id: "7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d",
      amount_due: "150.00",
      sent_at: "2026-11-20T09:00:00.000Z",
    },
  });

const remindRoute = keyRoute({
  method: "post",
  path: "/api/invoices/{id}/remind",
  tags: ["Reminders"],
  summary: "Remind the vendor now",
  description: `Queues a reminder email to the vendor (the invoice link, the amount still due after partial payments, the PDF attached), on the invoice's timeline. Only while something is due: a draft, paid, overpaid or void invoice is a 409 \`nothing_due\`. Every reminder, on request or automatic, keeps one cadence: none within ${REMINDER_GAP_HOURS} hours of the invoice's own email or of its previous reminder, and at most ${REMINDERS_PER_CUSTOMER_PER_DAY} a day per customer (the vendor email) whichever invoice it is about; otherwise a 429 \`rate_limited\` saying which, with \`Retry-After\` until one may go. A reminder on or after a policy step's day stands for that step. A \`write\` key is needed.`,
  request: { params: InvoiceIdParamSchema },
  responses: {
    202: jsonResponse("Queued", ReminderSchema),
    ...errorResponses(401, 403, 404, 409, 429),
  },
});

export function registerReminderRoutes(app: Router, deps: AppDeps): void {
  app.openapi(getPolicyRoute, async (c) =>
    c.json(await ownReminderPolicy(deps, merchantActorOf(c)), 200),
  );

  app.openapi<typeof patchPolicyRoute>(
    patchPolicyRoute,
    async (c) => {
      const actor = merchantActorOf(c);
      return c.json(await changeReminderPolicy(deps, actor, c.req.valid("json")), 200);
    },
    validationHook((path) => (path === "" ? Object.keys(UpdatePolicySchema.shape) : [])),
  );

  app.openapi(remindRoute, async (c) => {
    const sent = await remindNow(deps, merchantActorOf(c), c.req.valid("param").id);
    return c.json(
      {
        reminder_id: sent.reminderId,
        invoice_id: sent.invoiceId,
        amount_due: formatUsdc(sent.amountDue),
        sent_at: sent.sentAt.toISOString(),
      },
      202,
    );
  });
}
