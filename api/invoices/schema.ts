import { z } from "@hono/zod-openapi";
import { getAddress, isAddress } from "viem";
import { USDC_DECIMAL_PATTERN } from "../../domain/money.ts";
import {
  INVOICE_STATUSES,
  REPORTED_INVOICE_STATUSES,
  SWEEP_STATUSES,
  WALLET_TYPES,
} from "../../domain/statuses.ts";
import type { SweepView } from "../../domain/sweepView.ts";

/**
 * The request and response schemas of the invoice endpoints. The API, the CLI and the tests
 * all validate with these, so they cannot drift apart. Every rule carries a stable `code`
 * (in `params`) that the 400 body reports per field.
 */

const rule = (code: string, message: string) => ({ message, params: { code } });

/** A real calendar date written as YYYY-MM-DD. */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const calendarDate = z
  .string(rule("invalid_date", "must be a date written YYYY-MM-DD"))
  // One message per problem, and neither aborting: zod would then skip the rules across fields.
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value),
    rule("invalid_date", "must be a date written YYYY-MM-DD"),
  )
  .refine(
    (value) => !/^\d{4}-\d{2}-\d{2}$/.test(value) || isCalendarDate(value),
    rule("invalid_date", "is not a real calendar date"),
  );

const email = z.email(rule("invalid_email", "must be a valid email address")).max(254);
/** C0 control characters other than tab, line feed and carriage return, and DEL: Postgres
 * refuses NUL in text, and none of them belongs on an invoice. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, rule("required", "must not be empty"))
    .max(max, rule("too_long", `must be at most ${max} characters`))
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      rule("invalid_characters", "must not contain control characters"),
    );

/** A USDC amount as a quoted decimal string with 1–6 decimals: "100.00", "0.5", "1.123456". */
export const usdcAmount = z
  .custom<string>(
    (value) => typeof value === "string" && USDC_DECIMAL_PATTERN.test(value),
    // z.custom aborts by default, which would make zod skip the rules across fields.
    {
      ...rule(
        "invalid_decimal",
        'must be a quoted decimal string with 1 to 6 decimals, such as "100.00"',
      ),
      abort: false,
    },
  )
  .openapi({ type: "string", pattern: USDC_DECIMAL_PATTERN.source, example: "100.00" });

/** An EIP-55 checksummed address; a valid but unchecksummed one is refused with the fix. */
export const checksummedAddress = z.string().superRefine((value, ctx) => {
  if (!isAddress(value, { strict: false })) {
    ctx.addIssue({
      code: "custom",
      ...rule("invalid_address", "must be a 0x-prefixed 40-hex-digit EVM address"),
    });
  } else if (value !== getAddress(value)) {
    // viem's strict check lets an all-lowercase address through; a checksum is required here.
    ctx.addIssue({
      code: "custom",
      ...rule("not_checksummed", `must be EIP-55 checksummed: ${getAddress(value)}`),
    });
  }
});

/** byo needs a wallet_address; managed must not have one. Shared by invoices and links. */
export function walletRules(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (body.wallet_type === "byo" && body.wallet_address === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["wallet_address"],
      ...rule("required", 'is required when wallet_type is "byo"'),
    });
  }
  if (body.wallet_type === "managed" && body.wallet_address !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["wallet_address"],
      ...rule(
        "not_allowed",
        'must be omitted when wallet_type is "managed" (the merchant\'s managed wallet receives the funds)',
      ),
    });
  }
}

export const walletType = z.enum(WALLET_TYPES, rule("invalid_enum", 'must be "managed" or "byo"'));
export const webhookUrl = z
  .url({ protocol: /^https?$/, ...rule("invalid_url", "must be an http(s) URL") })
  .max(2000);
export { email as emailAddress, rule, text as nonEmptyText };

export const LineItemSchema = z
  .strictObject({
    description: text(500),
    quantity: z
      .number(rule("invalid_number", "must be a positive number"))
      .positive(rule("not_positive", "must be greater than 0"))
      .max(1_000_000_000, rule("too_large", "must be at most 1000000000")),
    unit_price: usdcAmount,
  })
  .openapi("LineItem", {
    example: { description: "Design work", quantity: 2, unit_price: "75.00" },
  });

/** `POST /api/invoices` — spec §2.1, exactly; unknown fields are refused. */
export const CreateInvoiceSchema = z
  .strictObject({
    merchant_email: email,
    merchant_name: text(200),
    merchant_address: text(1000),
    vendor_email: email,
    vendor_name: text(200),
    vendor_address: text(1000).optional(),
    line_items: z
      .array(LineItemSchema)
      .min(1, rule("too_few", "must have at least 1 line item"))
      .max(30, rule("too_many", "must have at most 30 line items")),
    issue_date: calendarDate.optional(),
    due_date: calendarDate,
    notes: text(2000).optional(),
    wallet_type: walletType,
    wallet_address: checksummedAddress.optional(),
    webhook_url: webhookUrl.optional(),
    send_now: z.boolean(rule("invalid_boolean", "must be true or false")).optional(),
  })
  .superRefine(
    (input, ctx) => {
      // Runs even when other fields failed (`when` below), so every problem is reported at once;
      // the fields read here may therefore have any shape, and the body may not be an object.
      if (typeof input !== "object" || input === null || Array.isArray(input)) return;
      const body = input as Record<string, unknown>;
      walletRules(body, ctx);
      const { issue_date: issue, due_date: due } = body;
      if (
        typeof issue === "string" &&
        typeof due === "string" &&
        isCalendarDate(issue) &&
        isCalendarDate(due) &&
        due < issue
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["due_date"],
          ...rule("before_issue_date", "must not be before issue_date"),
        });
      }
    },
    { when: () => true },
  )
  .openapi("CreateInvoiceRequest", {
    example: {
      merchant_email: "billing@acme.example",
      merchant_name: "Acme Ltd",
      merchant_address: "1 Market St, San Francisco",
      vendor_email: "ap@globex.example",
      vendor_name: "Globex",
      line_items: [{ description: "Design work", quantity: 2, unit_price: "75.00" }],
      due_date: "2026-12-31",
      wallet_type: "managed",
    },
  });

export type CreateInvoiceInput = z.infer<typeof CreateInvoiceSchema>;

export const CreateInvoiceResponseSchema = z
  .object({
    invoice_id: z.uuid(),
    invoice_number: z.string().openapi({ example: "INV-0001" }),
    slug: z.string(),
    invoice_url: z.url(),
    pdf_url: z.url(),
    deposit_address: z.string(),
    total_amount: z.string().openapi({ example: "150.00" }),
    sent_at: z.string().nullable(),
    status: z.enum(INVOICE_STATUSES).extract(["draft", "sent"]),
    webhook_secret: z.string().optional(),
  })
  .openapi("CreateInvoiceResponse");

export type CreateInvoiceResponse = z.infer<typeof CreateInvoiceResponseSchema>;

const InvoiceStatusSchema = z.enum(REPORTED_INVOICE_STATUSES);

export const InvoiceStatusResponseSchema = z
  .object({
    status: InvoiceStatusSchema,
    paid_amount: z.string().optional(),
    tx_hash: z.string().optional(),
    paid_at: z.string().optional(),
  })
  .openapi("InvoiceStatusResponse");

export type InvoiceStatusResponse = z.infer<typeof InvoiceStatusResponseSchema>;

/** A sweep of the deposit address to wallet_address, as domain/sweepView.ts presents it. */
const SweepSchema = z
  .object({
    sequence: z.number(),
    amount: z.string(),
    destination: z.string(),
    status: z.enum(SWEEP_STATUSES),
    tx_hash: z.string().nullable(),
    error: z.string().nullable(),
    indexed: z.boolean().openapi({
      description:
        "Whether the sweep's transfer out of the deposit address is in the indexed ledger.",
    }),
    created_at: z.string(),
  })
  .openapi("Sweep");

// The API shows a sweep exactly as the pages do: a field added to one only stops compiling here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.infer<typeof SweepSchema>, SweepView>;

export const InvoiceSchema = z
  .object({
    invoice_id: z.uuid(),
    invoice_number: z.string(),
    slug: z.string(),
    status: InvoiceStatusSchema,
    stored_status: z.enum(INVOICE_STATUSES),
    merchant_email: z.string(),
    merchant_name_snapshot: z.string(),
    merchant_address_snapshot: z.string(),
    vendor_email: z.string(),
    vendor_name: z.string(),
    vendor_address: z.string().nullable(),
    line_items: z.array(
      z.object({
        description: z.string(),
        quantity: z.number(),
        unit_price: z.string(),
        line_total: z.string(),
      }),
    ),
    total_amount: z.string(),
    currency: z.literal("USDC"),
    chain_id: z.literal(8453),
    issue_date: z.string(),
    due_date: z.string(),
    notes: z.string().nullable(),
    wallet_type: z.enum(WALLET_TYPES),
    wallet_address: z.string(),
    deposit_address: z.string(),
    payment_uri: z.string(),
    webhook_url: z.string().nullable(),
    sent_at: z.string().nullable(),
    created_at: z.string(),
    invoice_url: z.url(),
    pdf_url: z.url(),
    pdf_sha256: z.string(),
    paid_amount: z.string(),
    amount_due: z.string(),
    payments: z
      .array(
        z.object({
          tx_hash: z.string(),
          log_index: z.number(),
          from: z.string(),
          amount: z.string(),
          block_number: z.number(),
          paid_at: z.string(),
          counted: z.boolean().openapi({
            description:
              "Whether the transfer has the confirmations it needs: only counted ones are in paid_amount.",
          }),
        }),
      )
      .openapi({ description: "Every USDC transfer indexed to the deposit address." }),
    sweeps: z
      .array(SweepSchema)
      .openapi({ description: "Settlement: each sweep of the deposit address to wallet_address." }),
  })
  .openapi("Invoice");

export type Invoice = z.infer<typeof InvoiceSchema>;

export const InvoiceIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: "4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11",
  }),
});

/** The keys accepted at a path of the create request, for "did you mean" hints. */
export function createInvoiceKnownKeys(path: string): readonly string[] {
  if (path === "") return Object.keys(CreateInvoiceSchema.shape);
  if (/^line_items\[\d+\]$/.test(path)) return Object.keys(LineItemSchema.shape);
  return [];
}
