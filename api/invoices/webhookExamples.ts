import {
  EXAMPLE_EVENT_ID,
  EXAMPLE_INVOICE_ID,
  EXAMPLE_PAYMENT_TX,
  invoiceExample,
} from "../../app/invoices/examples.ts";

/**
 * The examples of the webhook endpoints: the paid invoice of ./examples.ts, its event and a
 * delivery delivered at the second attempt.
 */

export const deliveryExample = {
  delivery_id: "2a6f0c1d-9e8b-4c7a-b5d4-3e2f1a0b9c8d",
  url: invoiceExample.webhook_url,
  status: "delivered",
  attempts: 2,
  next_attempt_at: null,
  delivered_at: "2026-11-22T12:00:12.000Z",
  attempt_log: [
    {
      attempt: 1,
      attempted_at: "2026-11-22T12:00:01.000Z",
      status_code: 503,
      latency_ms: 84,
      error: null,
    },
    {
      attempt: 2,
      attempted_at: "2026-11-22T12:00:12.000Z",
      status_code: 200,
      latency_ms: 61,
      error: null,
    },
  ],
} as const;

/** What a redelivery answers: a new delivery of the same event, queued. */
export const redeliveryExample = {
  delivery_id: "5c8e2b7f-1d3a-4f6e-a9b0-7c6d5e4f3a2b",
  url: invoiceExample.webhook_url,
  status: "pending" as const,
  attempts: 0,
  next_attempt_at: null,
  delivered_at: null,
  attempt_log: [],
};

export const webhookEventExample = {
  event_id: EXAMPLE_EVENT_ID,
  type: "invoice.paid",
  status: "paid",
  paid_amount: "150.00",
  tx_hash: EXAMPLE_PAYMENT_TX,
  created_at: "2026-11-22T12:00:01.000Z",
  payload: JSON.stringify({
    event_id: EXAMPLE_EVENT_ID,
    type: "invoice.paid",
    created_at: "2026-11-22T12:00:01.000Z",
    invoice_id: EXAMPLE_INVOICE_ID,
    invoice_number: "INV-0001",
    status: "paid",
    tx_hash: EXAMPLE_PAYMENT_TX,
    paid_amount: "150.00",
    paid_at: "2026-11-22T12:00:00.000Z",
    total_amount: "150.00",
    amount_due: "0.00",
    metadata: { order_id: "1042" },
  }),
  deliveries: [deliveryExample],
} as const;
