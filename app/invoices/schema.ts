import { z } from "@hono/zod-openapi";
import { CURRENCIES } from "../../domain/currencies.ts";
import type { DepositPaymentView } from "../../domain/depositPaymentView.ts";
import {
  INVOICE_STATUSES,
  REPORTED_INVOICE_STATUSES,
  SWEEP_STATUSES,
  WALLET_TYPES,
} from "../../domain/statuses.ts";
import type { SweepView } from "../../domain/sweepView.ts";
import { TAX_CATEGORIES } from "../../domain/tax.ts";
import { RefundSchema } from "../refunds/refundSchema.ts";
import {
  calendarDate,
  checksummedAddress,
  currencyField,
  currencyRules,
  emailAddress,
  isCalendarDate,
  metadataSchema,
  nonEmptyText,
  rule,
  storedMetadataSchema,
  taxCategory,
  taxRate,
  usdcAmount,
  walletRules,
  walletType,
  webhookUrl,
  X402_URL_DESCRIPTION,
} from "../schemaFields.ts";
import { InvoiceCreditFields } from "./creditFields.ts";
import {
  createInvoiceResponseExample,
  EXAMPLE_INVOICE_ID,
  invoiceExample,
  invoiceStatusResponseExample,
  sweepExample,
} from "./examples.ts";
import { CreateInvoiceTaxFields, InvoiceTaxFields, taxRules } from "./taxFields.ts";

/**
 * The request and response schemas of the invoice endpoints. The API, the CLI and the tests
 * all validate with these, so they cannot drift apart. Every rule carries a stable `code`
 * (in `params`) that the 400 body reports per field.
 */

export const LineItemSchema = z
  .strictObject({
    description: nonEmptyText(500).openapi({ description: "What the line bills for." }),
    quantity: z
      .number(rule("invalid_number", "must be a positive number"))
      .positive(rule("not_positive", "must be greater than 0"))
      .max(1_000_000_000, rule("too_large", "must be at most 1000000000"))
      .openapi({ description: "A JSON number; fractions are allowed (hours, say)." }),
    unit_price: usdcAmount.openapi({
      example: "75.00",
      description:
        'The price of one unit in USDC: a quoted decimal string with 1 to 6 decimals, such as `"75.00"`. The line total is quantity × unit_price, rounded half-up to 6 decimals (to the cent on an invoice with tax).',
    }),
    tax_rate: taxRate.optional().openapi({
      description:
        'The line\'s tax rate in percent (`"19"`, `"7.5"`, `"0"`). An addition to the spec: once one line has `tax_rate` or `tax_category`, every line needs one, amounts are computed in cents and `total_amount` is subtotal + tax (docs/einvoices.md).',
    }),
    tax_category: taxCategory.optional(),
  })
  .openapi("LineItem", {
    example: { description: "Design work", quantity: 2, unit_price: "75.00" },
  });

/** `POST /api/invoices` — spec §2.1, exactly; unknown fields are refused. */
export const CreateInvoiceSchema = z
  .strictObject({
    merchant_email: emailAddress.openapi({
      description:
        "The merchant, who is paid: identifies them (case-insensitively), numbers their invoices and receives their payment notices.",
    }),
    merchant_name: nonEmptyText(200).openapi({
      description: "The merchant's name, on the invoice.",
    }),
    merchant_address: nonEmptyText(1000).openapi({
      description: "The merchant's postal address, on the invoice.",
    }),
    vendor_email: emailAddress.openapi({ description: "Who pays: the invoice is emailed here." }),
    vendor_name: nonEmptyText(200).openapi({ description: "The payer's name, on the invoice." }),
    vendor_address: nonEmptyText(1000)
      .openapi({ description: "The payer's postal address, on the invoice." })
      .optional(),
    line_items: z
      .array(LineItemSchema)
      .min(1, rule("too_few", "must have at least 1 line item"))
      .max(30, rule("too_many", "must have at most 30 line items"))
      .openapi({ description: "What is billed; `total_amount` is the sum of the line totals." }),
    issue_date: calendarDate
      .openapi({
        example: "2026-11-20",
        description: "A date written YYYY-MM-DD; today (UTC) when omitted.",
      })
      .optional(),
    due_date: calendarDate.openapi({
      description:
        "A date written YYYY-MM-DD, not before `issue_date`; past it, an unpaid invoice reads `overdue`.",
    }),
    notes: nonEmptyText(2000)
      .openapi({ description: "Free text printed on the invoice." })
      .optional(),
    wallet_type: walletType,
    wallet_address: checksummedAddress.optional(),
    webhook_url: webhookUrl.optional(),
    metadata: metadataSchema.optional().openapi({
      description:
        "Up to 20 flat keys of your own (an order id, a customer id), as payment links take them: returned in the invoice's bodies and list (which filters on them: `?metadata[order_id]=1042`), its CSV export, its webhooks and the event log. Set at creation, never changed.",
      example: { order_id: "1042" },
    }),
    currency: currencyField.optional(),
    ...CreateInvoiceTaxFields,
    send_now: z
      .boolean(rule("invalid_boolean", "must be true or false"))
      .openapi({
        description:
          "Whether to email the vendor now (the default); `false` keeps a `draft`, sent later with `POST /api/invoices/{id}/send`.",
      })
      .optional(),
  })
  .superRefine(
    (input, ctx) => {
      // Runs even when other fields failed (`when` below), so every problem is reported at once;
      // the fields read here may therefore have any shape, and the body may not be an object.
      if (typeof input !== "object" || input === null || Array.isArray(input)) return;
      const body = input as Record<string, unknown>;
      walletRules(body, ctx);
      taxRules(body, ctx);
      currencyRules(
        body,
        (Array.isArray(body.line_items) ? body.line_items : []).map((item, index) => ({
          path: ["line_items", index, "unit_price"],
          value: (item as { unit_price?: unknown } | null)?.unit_price,
        })),
        ctx,
      );
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
    invoice_id: z.uuid().openapi({ description: "Names the invoice in the other endpoints." }),
    invoice_number: z
      .string()
      .openapi({ example: "INV-0001", description: "Per merchant: `INV-0001`, `INV-0002`, …" }),
    slug: z.string().openapi({
      description:
        "Names the invoice in its page's URL and in `GET /api/payments/status/{slug}`: 12 base58 characters.",
    }),
    invoice_url: z.url().openapi({ description: "The hosted invoice page the vendor pays from." }),
    pdf_url: z.url().openapi({ description: "The PDF, byte-identical to the one emailed." }),
    x402_url: z.url().openapi({ description: X402_URL_DESCRIPTION }),
    deposit_address: z.string().openapi({
      description: "The invoice's own address: the vendor sends USDC on Base here.",
    }),
    total_amount: z.string().openapi({
      example: "150.00",
      description: "The sum of the line totals, in USDC (or in `currency`).",
    }),
    currency: z.enum(CURRENCIES).exclude(["USDC"]).optional().openapi({
      description: "Only for an invoice priced in a currency: what `total_amount` is in.",
    }),
    sent_at: z
      .string()
      .nullable()
      .openapi({ description: "When the email to the vendor was queued; null for a draft." }),
    status: z
      .enum(INVOICE_STATUSES)
      .extract(["draft", "sent"])
      .openapi({ description: "`sent`, or `draft` when `send_now` was false." }),
    webhook_secret: z.string().optional().openapi({
      description:
        "Signs the webhooks (`whsec_…`). Only when `webhook_url` was given, and only in this answer (and its idempotent replays): store it.",
    }),
  })
  .openapi("CreateInvoiceResponse", { example: createInvoiceResponseExample });

export type CreateInvoiceResponse = z.infer<typeof CreateInvoiceResponseSchema>;

const InvoiceStatusSchema = z.enum(REPORTED_INVOICE_STATUSES);

export const InvoiceStatusResponseSchema = z
  .object({
    status: InvoiceStatusSchema.openapi({
      description:
        "`overdue` is derived: reported while the stored status is `draft` or `sent` and `due_date` is before today (UTC).",
    }),
    paid_amount: z.string().optional().openapi({
      description:
        "The total received, in USDC (in the invoice's `currency` when it is priced in one); in `paid`, `partial` and `excess` only.",
    }),
    currency: z.enum(CURRENCIES).exclude(["USDC"]).optional().openapi({
      description: "Only for an invoice priced in a currency, with `paid_amount`: what it is in.",
    }),
    paid_amount_usdc: z.string().optional().openapi({
      description:
        "Only for an invoice priced in a currency, with `paid_amount`: the USDC received.",
    }),
    tx_hash: z.string().optional().openapi({ description: "The latest payment's transaction." }),
    paid_at: z.string().optional().openapi({ description: "The latest payment's block time." }),
    refunded_amount: z.string().optional().openapi({
      description:
        "What confirmed refunds paid back, in USDC; only once there is one (an addition to spec §2.4).",
    }),
  })
  .openapi("InvoiceStatusResponse", { example: invoiceStatusResponseExample });

export type InvoiceStatusResponse = z.infer<typeof InvoiceStatusResponseSchema>;

/** A sweep of the deposit address to wallet_address, as domain/sweepView.ts presents it. */
export const SweepSchema = z
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
  .openapi("Sweep", { example: sweepExample });

// The API shows a sweep exactly as the pages do: a field added to one only stops compiling here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.infer<typeof SweepSchema>, SweepView>;

/**
 * The `payments` of an invoice and of a payment link, as domain/depositPaymentView.ts presents
 * them: every transfer indexed to the deposit address, counted or not.
 */
export const DepositPaymentsSchema = z
  .array(
    z.object({
      tx_hash: z.string(),
      log_index: z.number(),
      from: z.string().openapi({ description: "The payer's address." }),
      amount: z.string(),
      block_number: z.number(),
      paid_at: z.string().openapi({ description: "The block's time." }),
      counted: z.boolean().openapi({
        description:
          "Whether the transfer has the confirmations it needs: only counted ones are in paid_amount (an invoice) or amount_received (a payment link).",
      }),
      amount_in_currency: z.string().optional().openapi({
        description:
          "Priced in a currency, once converted: what the payment counted for in it (its quote's amount, or `amount` at `rate`).",
      }),
      rate: z.string().optional().openapi({
        description:
          "Priced in a currency, once converted: USDC per unit of the currency it counted at (the currency's feed over USDC / USD's, 8 decimals, rounded down), from its quote or its block's rounds.",
      }),
    }),
  )
  .openapi({ description: "Every USDC transfer indexed to the deposit address." });
true satisfies Same<z.infer<typeof DepositPaymentsSchema>[number], DepositPaymentView>;

/**
 * The fields an invoice or link priced in a currency adds (none in USDC): what is received in
 * USDC, and what a payer is asked to send now (docs/currencies.md, "Quotes").
 */
export const CurrencyAmountFields = {
  paid_amount_usdc: z.string().optional().openapi({
    description: "Priced in a currency: the counted payments in USDC, what arrived.",
  }),
  amount_due_usdc: z.string().nullable().optional().openapi({
    description:
      "Priced in a currency: what to send now for `amount_due`, in USDC, at the quote's rate, honoured until `quote_expires_at`; null when no fresh rate can be read (`rate_unavailable` says why), `0.00` when nothing is due.",
  }),
  quote_expires_at: z.string().optional().openapi({
    description:
      "Until when a payment of exactly `amount_due_usdc` counts as `amount_due`, whatever the rate does.",
  }),
  rate_unavailable: z.string().optional().openapi({
    description: "Why nothing can be asked now (a stale price feed, Base's sequencer down).",
  }),
};

export const InvoiceSchema = z
  .object({
    invoice_id: z.uuid(),
    invoice_number: z.string().openapi({ description: "Per merchant: `INV-0001`, `INV-0002`, …" }),
    slug: z.string().openapi({ description: "Names the invoice in `invoice_url`." }),
    status: InvoiceStatusSchema.openapi({
      description: "As stored, or `overdue` once past `due_date` unpaid (see `stored_status`).",
    }),
    stored_status: z.enum(INVOICE_STATUSES).openapi({ description: "As stored: never `overdue`." }),
    merchant_email: z.string(),
    merchant_name_snapshot: z
      .string()
      .openapi({ description: "`merchant_name` as given at creation, as the PDF shows it." }),
    merchant_address_snapshot: z
      .string()
      .openapi({ description: "`merchant_address` as given at creation." }),
    vendor_email: z.string(),
    vendor_name: z.string(),
    vendor_address: z.string().nullable(),
    line_items: z.array(
      z.object({
        description: z.string(),
        quantity: z.number(),
        unit_price: z.string(),
        line_total: z.string().openapi({
          description:
            "quantity × unit_price, rounded half-up to 6 decimals; on an invoice with tax, the line's net amount, to the cent.",
        }),
        tax_category: z.enum(TAX_CATEGORIES).optional().openapi({
          description: "Only on an invoice with tax: the line's VAT category.",
        }),
        tax_rate: z.string().optional().openapi({
          description: "Only on an invoice with tax, and not for category `O`: percent.",
        }),
      }),
    ),
    total_amount: z.string().openapi({ description: "The sum of the line totals, in USDC." }),
    currency: z.enum(CURRENCIES).openapi({
      description:
        "What its amounts are in: `USDC` (the spec's), or `EUR`, `GBP`, `USD`, paid in USDC at the chain's rate (docs/currencies.md). In a currency, `total_amount`, `paid_amount`, `amount_due` and the lines are in it.",
    }),
    ...CurrencyAmountFields,
    chain_id: z.literal(8453),
    issue_date: z.string(),
    due_date: z.string(),
    notes: z.string().nullable(),
    wallet_type: z.enum(WALLET_TYPES),
    wallet_address: z.string().openapi({
      description: "Where the funds are swept: the merchant's own wallet, or their managed one.",
    }),
    deposit_address: z
      .string()
      .openapi({ description: "The invoice's own address: the vendor pays USDC on Base here." }),
    payment_uri: z.string().openapi({
      description:
        "An EIP-681 request for what is still due (the total once nothing is), for wallets and QR codes.",
    }),
    webhook_url: z.string().nullable(),
    sent_at: z
      .string()
      .nullable()
      .openapi({ description: "When the email to the vendor was queued; null for a draft." }),
    created_at: z.string(),
    invoice_url: z.url(),
    pdf_url: z.url(),
    x402_url: z.url().openapi({ description: X402_URL_DESCRIPTION }),
    pdf_sha256: z
      .string()
      .openapi({ description: "The SHA-256 of the PDF's bytes (hex), also its `ETag`." }),
    paid_amount: z.string().openapi({ description: "The total of the counted payments, in USDC." }),
    amount_due: z.string().openapi({
      description:
        "What is still due, in USDC: the total (less `credited_amount`, once credited) less `paid_amount`, never negative; 0.00 once `paid` (a tolerated shortfall included) and when `void` (a payment that still arrives is held for refund, not owed). Refunds do not change it.",
    }),
    underpayment_tolerance: z.string().openapi({
      description:
        "The shortfall, in USDC, that still makes this invoice `paid`: its merchant's setting when it was created (0.00: exactly the total).",
    }),
    payments: DepositPaymentsSchema,
    sweeps: z
      .array(SweepSchema)
      .openapi({ description: "Settlement: each sweep of the deposit address to wallet_address." }),
    refunds: z.array(RefundSchema).openapi({
      description: "Every refund requested (POST /api/invoices/{id}/refunds), oldest first.",
    }),
    refunded_amount: z
      .string()
      .openapi({ description: "What confirmed refunds paid back, in USDC (`0.00` before any)." }),
    voided_at: z
      .string()
      .nullable()
      .openapi({ description: "When the invoice was voided; null unless `void`." }),
    schedule_id: z.uuid().nullable().openapi({
      description:
        "The invoice schedule that issued it (`/api/invoice-schedules`); null for an invoice made by hand.",
    }),
    metadata: storedMetadataSchema.openapi({
      description: "The `metadata` it was created with; `{}` when none was given.",
    }),
    ...InvoiceTaxFields,
    ...InvoiceCreditFields,
  })
  .openapi("Invoice", { example: invoiceExample });

export type Invoice = z.infer<typeof InvoiceSchema>;

export const InvoiceIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: EXAMPLE_INVOICE_ID,
    description: "The invoice's `invoice_id`; anything that is not one is a 404.",
  }),
});

/** The keys accepted at a path of the create request, for "did you mean" hints. */
export function createInvoiceKnownKeys(path: string): readonly string[] {
  if (path === "") return Object.keys(CreateInvoiceSchema.shape);
  if (/^line_items\[\d+\]$/.test(path)) return Object.keys(LineItemSchema.shape);
  return [];
}
