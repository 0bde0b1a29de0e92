import { z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { CURRENCIES, type Currency, isCurrency } from "../../domain/currencies.ts";
import { MAX_TOTAL, priceInvoice } from "../../domain/invoiceTotals.ts";
import {
  FIRST_SCHEDULE_YEAR,
  LAST_SCHEDULE_YEAR,
  MAX_BACKFILL_PERIODS,
  SCHEDULE_FREQUENCIES,
  SCHEDULE_STATUSES,
} from "../../domain/schedule.ts";
import {
  type CreateInvoiceInput,
  CreateInvoiceSchema,
  createInvoiceKnownKeys,
} from "../invoices/schema.ts";
import { type FieldError, fieldErrors, validationError } from "../refusal.ts";
import { rule } from "../schemaFields.ts";

/**
 * The schemas of /api/invoice-schedules. The template (`invoice`) is validated by
 * POST /api/invoices' own schema, so a schedule can never hold an invoice the API would refuse;
 * its field errors are reported under `invoice.`.
 */

/** A schedule's template: a POST /api/invoices body without issue_date, due_date. */
export type InvoiceTemplate = Omit<CreateInvoiceInput, "issue_date" | "due_date">;

/** What a stored template's invoices are priced in: its `currency`, else USDC (the API's default). */
export function templateCurrency(template: Record<string, unknown>): Currency {
  const currency = template.currency;
  return typeof currency === "string" && isCurrency(currency) ? currency : "USDC";
}

/** The dates the schedule sets itself: a template giving them is refused. */
const SCHEDULE_DATES = ["issue_date", "due_date"] as const;
/** A due date no issue date can come after, to validate a template as a whole body. */
const PLACEHOLDER_DUE_DATE = "9999-12-31";

/** A field error of the template as POST /api/invoices reports it, moved under `invoice.`. */
export const underInvoice = <F extends { path: string }>(field: F): F => ({
  ...field,
  path: field.path ? `invoice.${field.path}` : "invoice",
});

/**
 * The template's field errors, exactly as POST /api/invoices reports them, under `invoice.`;
 * the validated template when there are none.
 */
export function checkTemplate(
  value: unknown,
): { template: InvoiceTemplate; fields: [] } | { template: null; fields: FieldError[] } {
  if (value === undefined)
    return {
      template: null,
      fields: [{ path: "invoice", code: "required", message: "is required" }],
    };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return {
      template: null,
      fields: [{ path: "invoice", code: "invalid_type", message: "expected object" }],
    };
  const body = value as Record<string, unknown>;
  const fields: FieldError[] = SCHEDULE_DATES.filter((key) => key in body).map((key) => ({
    path: `invoice.${key}`,
    code: "not_allowed",
    message:
      "is set by the schedule: each invoice is issued on its period's date and due days_until_due later",
  }));
  const { issue_date: _issue, due_date: _due, ...rest } = body;
  const whole = { ...rest, due_date: PLACEHOLDER_DUE_DATE };
  const parsed = CreateInvoiceSchema.safeParse(whole);
  if (!parsed.success)
    fields.push(
      ...fieldErrors(parsed.error as ZodError, whole, createInvoiceKnownKeys).map(underInvoice),
    );
  if (parsed.success) {
    // The checks POST /api/invoices makes past its schema: a total above 0 and within range.
    // Priced as the invoices will be: in a currency, each line to the cent.
    const { total } = priceInvoice(parsed.data.line_items, parsed.data.currency);
    if (total <= 0n)
      fields.push({
        path: "invoice.line_items",
        code: "zero_total",
        message: "the invoice total must be greater than 0",
      });
    if (total > MAX_TOTAL)
      fields.push({
        path: "invoice.line_items",
        code: "too_large",
        message: "the invoice total must be at most 100000000000.00 USDC",
      });
  }
  if (fields.length || !parsed.success) return { template: null, fields };
  const { due_date: _placeholder, issue_date: _none, ...template } = parsed.data;
  return { template, fields: [] };
}

const calendarDate = z
  .string()
  .refine(
    (value) =>
      /^\d{4}-\d{2}-\d{2}$/.test(value) &&
      new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value,
    rule("invalid_date", "must be a real date written YYYY-MM-DD"),
  )
  .refine(
    (value) => {
      // A malformed date has its own error above: one message per field.
      if (!/^\d{4}-/.test(value)) return true;
      const year = Number(value.slice(0, 4));
      return year >= FIRST_SCHEDULE_YEAR && year <= LAST_SCHEDULE_YEAR;
    },
    rule("out_of_range", `must be in the years ${FIRST_SCHEDULE_YEAR} to ${LAST_SCHEDULE_YEAR}`),
  )
  .openapi({ format: "date" });

const TEMPLATE_EXAMPLE = {
  merchant_email: "billing@acme.example",
  merchant_name: "Acme Ltd",
  merchant_address: "1 Market St, San Francisco",
  vendor_email: "ap@globex.example",
  vendor_name: "Globex",
  line_items: [{ description: "Monthly retainer", quantity: 1, unit_price: "1500.00" }],
  wallet_type: "managed",
};

const templateField = z.unknown().openapi({
  type: "object",
  description:
    "The invoice to issue: everything `POST /api/invoices` takes (`CreateInvoiceRequest`) except `issue_date` and `due_date`, validated exactly as it validates them (errors under `invoice.`). With `currency` (`USD`, `EUR`, `GBP`), every invoice it issues is priced in it (docs/currencies.md).",
  example: TEMPLATE_EXAMPLE,
});

const daysUntilDue = z
  .number(rule("invalid_number", "must be a whole number of days"))
  .int(rule("invalid_number", "must be a whole number of days"))
  .min(0, rule("out_of_range", "must be from 0 to 365"))
  .max(365, rule("out_of_range", "must be from 0 to 365"))
  .openapi({ example: 30, description: "Each invoice is due this many days after it is issued." });

const count = z
  .number(rule("invalid_number", "must be a whole number"))
  .int(rule("invalid_number", "must be a whole number"))
  .min(1, rule("out_of_range", "must be from 1 to 10000"))
  .max(10_000, rule("out_of_range", "must be from 1 to 10000"));

export const CreateScheduleSchema = z
  .strictObject({
    invoice: templateField,
    interval: z
      .enum(
        SCHEDULE_FREQUENCIES,
        rule("invalid_enum", 'must be "weekly", "monthly" or "every_n_days"'),
      )
      .openapi({
        description:
          "`monthly` keeps the start date's day of the month (the month's last day when shorter: 31 January, 28 or 29 February, 31 March); `weekly`; `every_n_days` with `n`.",
      }),
    n: z
      .number(rule("invalid_number", "must be a whole number of days"))
      .int(rule("invalid_number", "must be a whole number of days"))
      .min(1, rule("out_of_range", "must be from 1 to 366"))
      .max(366, rule("out_of_range", "must be from 1 to 366"))
      .optional()
      .openapi({
        description: 'Days between invoices: required with `"every_n_days"`, refused otherwise.',
      }),
    start_date: calendarDate.openapi({
      example: "2027-01-31",
      description: "The first invoice's date (UTC); periods are counted from it.",
    }),
    end_date: calendarDate
      .optional()
      .openapi({ description: "No invoice is issued for a period after this date." }),
    count: count
      .optional()
      .openapi({ description: "At most this many invoices (run-now ones included)." }),
    days_until_due: daysUntilDue,
    backfill: z
      .boolean(rule("invalid_type", "must be true or false"))
      .optional()
      .openapi({
        description: `A \`start_date\` in the past: false (the default) issues only the current period (the latest on or before today); true issues every past period, at most ${MAX_BACKFILL_PERIODS} (more is a 400 \`too_many_periods\`).`,
      }),
  })
  .superRefine(
    (input, ctx) => {
      if (typeof input !== "object" || input === null) return;
      const body = input as Record<string, unknown>;
      if (body.interval === "every_n_days" && body.n === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["n"],
          ...rule("required", 'is required when interval is "every_n_days"'),
        });
      if (body.interval !== "every_n_days" && body.n !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["n"],
          ...rule("not_allowed", 'is only for interval "every_n_days"'),
        });
      if (
        typeof body.start_date === "string" &&
        typeof body.end_date === "string" &&
        body.end_date < body.start_date
      )
        ctx.addIssue({
          code: "custom",
          path: ["end_date"],
          ...rule("before_start", "must not be before start_date"),
        });
    },
    { when: () => true },
  )
  .openapi("CreateInvoiceScheduleRequest", {
    example: {
      invoice: TEMPLATE_EXAMPLE,
      interval: "monthly",
      start_date: "2027-01-31",
      days_until_due: 30,
    },
  });

export type CreateScheduleInput = z.infer<typeof CreateScheduleSchema>;

export const UpdateScheduleSchema = z
  .strictObject({
    invoice: templateField.optional(),
    end_date: calendarDate.nullable().optional().openapi({ description: "null: no end date." }),
    count: count.nullable().optional().openapi({ description: "null: no limit." }),
    days_until_due: daysUntilDue.optional(),
  })
  .openapi("UpdateInvoiceScheduleRequest", { example: { count: 12, days_until_due: 14 } });

export type UpdateScheduleInput = z.infer<typeof UpdateScheduleSchema>;

export const scheduleExample = {
  schedule_id: "5b2e8f0c-3d1a-4c6b-9e7f-2a1b3c4d5e6f",
  status: "active" as const,
  interval: "monthly" as const,
  n: null,
  start_date: "2027-01-31",
  end_date: null,
  count: null,
  days_until_due: 30,
  next_issue_date: "2027-02-28",
  issued_count: 1,
  last_error: null,
  currency: "USDC" as const,
  invoice: TEMPLATE_EXAMPLE,
  created_at: "2027-01-20T10:00:00.000Z",
  updated_at: "2027-01-31T00:01:02.000Z",
};

export const ScheduleSchema = z
  .object({
    schedule_id: z.uuid(),
    status: z.enum(SCHEDULE_STATUSES).openapi({
      description:
        "`active` issues on each period's date; `paused` issues nothing until resumed (its missed periods are then issued); `cancelled` for good; `completed` once `count` or `end_date` is reached.",
    }),
    interval: z.enum(SCHEDULE_FREQUENCIES),
    n: z.number().nullable(),
    start_date: z.string(),
    end_date: z.string().nullable(),
    count: z.number().nullable(),
    days_until_due: z.number(),
    next_issue_date: z
      .string()
      .nullable()
      .openapi({ description: "The next period's date; null once there is none." }),
    issued_count: z.number().openapi({ description: "Invoices issued so far." }),
    last_error: z.string().nullable().openapi({
      description:
        "Why the last issue failed (the template no longer passes POST /api/invoices' checks: the schedule was paused).",
    }),
    currency: z.enum(CURRENCIES).openapi({
      description:
        "What the invoices it issues are priced in: the template's `currency`, `USDC` when it has none.",
    }),
    invoice: z.record(z.string(), z.unknown()).openapi({ description: "The template." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("InvoiceSchedule", { example: scheduleExample });

export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: scheduleExample.schedule_id,
    description: "The schedule's `schedule_id`; another merchant's, or anything else, is a 404.",
  }),
});

export function createScheduleKnownKeys(path: string): readonly string[] {
  if (path === "") return Object.keys(CreateScheduleSchema.shape);
  return [];
}
export function updateScheduleKnownKeys(path: string): readonly string[] {
  if (path === "") return Object.keys(UpdateScheduleSchema.shape);
  return [];
}

/** Throws the 400 of a body whose template fails, with `more` fields found before. */
export function templateOrThrow(value: unknown, more: FieldError[] = []): InvoiceTemplate {
  const { template, fields } = checkTemplate(value);
  if (template && more.length === 0) return template;
  throw validationError([...more, ...fields]);
}
