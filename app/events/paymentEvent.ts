import { z } from "@hono/zod-openapi";
import { INVOICE_STATUSES, LINK_STATUSES } from "../../domain/statuses.ts";
import { TEST_EVENT_TYPE } from "../../domain/webhookEndpoints.ts";

/**
 * The one shape of every event Remit records and delivers: the body of each webhook, byte for
 * byte the `event` of the event log (GET /api/events), and what the typed client's
 * `verifyWebhook` returns. Every builder (app/payments/reconcileDeposit.ts,
 * app/refunds/checkRefund.ts, app/reminders/remind.ts, the endpoints' test event) types its
 * body with it, and
 * app/events/recordEvent.ts parses it before it is stored: a field the schema does not name
 * never reaches a receiver.
 */

const usdc = (description: string) =>
  z.string().openapi({ example: "150.00", description: `${description}, decimal USDC.` });
const timestamp = z.string().openapi({ example: "2026-11-01T10:02:09.000Z" });

/** What every event carries: its id (= `webhook-id`, dedupe on it), type and moment. */
const common = {
  event_id: z.uuid().openapi({ description: "Dedupe on it: delivery is at least once." }),
  created_at: timestamp,
};

/**
 * A merchant's own keys and values, echoed back (an order id, say): a payment link's
 * `metadata`, and an invoice's where it has one.
 */
export const EventMetadataSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .openapi({ example: { order_id: "1042" } });

/** Spec §6.1's fields (invoice_id … paid_at), plus the invoice's totals. */
const invoiceFields = {
  invoice_id: z.uuid(),
  invoice_number: z.string().openapi({ example: "INV-0042" }),
  status: z.enum(INVOICE_STATUSES),
  metadata: EventMetadataSchema.optional(),
};

/** A payment counted, changed or reversed on an invoice (spec §6.1). */
export const InvoicePaymentEventSchema = z
  .object({
    ...common,
    type: z.enum([
      "invoice.paid",
      "invoice.partial",
      "invoice.excess",
      "invoice.payment_reversed",
      "invoice.unexpected_payment",
    ]),
    ...invoiceFields,
    tx_hash: z.string().nullable().openapi({
      description: "The latest counted transaction; on a reversal, the one that disappeared.",
    }),
    paid_amount: usdc("Everything received"),
    paid_at: timestamp.nullable(),
    total_amount: usdc("The invoice's total"),
    amount_due: usdc("What is still due (0.00 once paid or void)"),
    currency: z.enum(["USD", "EUR", "GBP"]).optional().openapi({
      description:
        "Only for an invoice priced in a currency (docs/currencies.md): paid_amount, total_amount and amount_due are in it.",
    }),
    paid_amount_usdc: z.string().optional().openapi({
      description: "Only for an invoice priced in a currency: the USDC received, what arrived.",
    }),
  })
  .openapi("InvoicePaymentEvent");

/** An invoice's due date is near, or has passed (once each). */
export const InvoiceDueEventSchema = z
  .object({
    ...common,
    type: z.enum(["invoice.will_be_due", "invoice.overdue"]),
    ...invoiceFields,
    due_date: z.string().openapi({ example: "2026-11-30" }),
    total_amount: usdc("The invoice's total"),
    paid_amount: usdc("Everything received"),
    amount_due: usdc("What is still due"),
  })
  .openapi("InvoiceDueEvent");

/** What a confirmed refund's event says of the refund, whoever it was paid for. */
const refundFields = {
  refund_id: z.uuid(),
  amount: usdc("This refund"),
  to: z.string().nullable().openapi({ description: "The payer's address it was sent to." }),
  tx_hash: z.string().nullable(),
  refunded_amount: usdc("Every confirmed refund of the invoice or link"),
};

/** A refund of an invoice confirmed on chain. */
export const InvoiceRefundedEventSchema = z
  .object({
    ...common,
    type: z.literal("invoice.refunded"),
    ...refundFields,
    ...invoiceFields,
    paid_amount: usdc("Everything received"),
  })
  .openapi("InvoiceRefundedEvent");

/**
 * A credit note issued on an invoice (issue 44): what it took off, and the invoice's money and
 * status after it. A credit note that settles the invoice (credited down to what arrived) is
 * told by this event alone: no payment happened.
 */
export const CreditNoteCreatedEventSchema = z
  .object({
    ...common,
    type: z.literal("credit_note.created"),
    ...invoiceFields,
    credit_note_id: z.uuid(),
    credit_note_number: z.string().openapi({ example: "CN-0001" }),
    amount: usdc("This credit note's total"),
    reason: z.string(),
    total_amount: usdc("The invoice's total, as issued"),
    credited_amount: usdc("Every credit note of the invoice"),
    paid_amount: usdc("Everything received"),
    amount_due: usdc("What the invoice still asks for"),
  })
  .openapi("CreditNoteCreatedEvent");

/** The payment-link status fields (spec §2.5), always with the link's metadata. */
const linkFields = {
  slug: z.string(),
  status: z.enum(LINK_STATUSES),
  amount_usdc: usdc("Everything received"),
  metadata: EventMetadataSchema,
};

/** A payment counted, changed or reversed on a payment link. */
export const LinkPaymentEventSchema = z
  .object({
    ...common,
    type: z.enum(["link.confirmed", "link.partial", "link.excess", "link.payment_reversed"]),
    ...linkFields,
    tx_hash: z.string().nullable(),
    confirmed_at: timestamp.nullable(),
    amount: usdc("The link's amount"),
    amount_due: usdc("What is still due"),
  })
  .openapi("LinkPaymentEvent");

/** A refund of a payment link confirmed on chain. */
export const LinkRefundedEventSchema = z
  .object({
    ...common,
    type: z.literal("link.refunded"),
    ...refundFields,
    ...linkFields,
  })
  .openapi("LinkRefundedEvent");

/** The events of a merchant's invoices and links: a payment event and every delivered body. */
const PAYMENT_EVENT_SCHEMAS = [
  InvoicePaymentEventSchema,
  InvoiceDueEventSchema,
  InvoiceRefundedEventSchema,
  CreditNoteCreatedEventSchema,
  LinkPaymentEventSchema,
  LinkRefundedEventSchema,
] as const;

/** Every event of a merchant's invoices and links, told apart by `type`. */
export const PaymentEventSchema = z.discriminatedUnion("type", PAYMENT_EVENT_SCHEMAS);

/** An event of a merchant's invoices or links, as delivered and logged. */
export type PaymentEvent = z.infer<typeof PaymentEventSchema>;
export type InvoicePaymentEvent = z.infer<typeof InvoicePaymentEventSchema>;
export type LinkPaymentEvent = z.infer<typeof LinkPaymentEventSchema>;

/** The event POST /api/webhook-endpoints/{id}/test sends to that endpoint alone. */
export const EndpointTestEventSchema = z
  .object({
    ...common,
    type: z.literal(TEST_EVENT_TYPE),
    endpoint_id: z.uuid(),
  })
  .openapi("EndpointTestEvent");

/** Every body a webhook delivers and the event log holds: a payment event or an endpoint's test. */
export const EventSchema = z
  .discriminatedUnion("type", [...PAYMENT_EVENT_SCHEMAS, EndpointTestEventSchema])
  .openapi("Event", {
    description:
      'Exactly the JSON body every delivery of the event sent (the same `event_id`), told apart by `type` (docs/api.md, "Webhooks").',
  });

/** A delivered or logged event: what the typed client's `verifyWebhook` returns. */
export type Event = z.infer<typeof EventSchema>;
