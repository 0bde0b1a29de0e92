import { createHmac } from "node:crypto";
import type { Address } from "viem";
import { expect } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { EVENT_MS } from "./waits.ts";
import type { ReceivedWebhook } from "./webhookReceiver.ts";

type Json = Record<string, unknown>;
export type CreatedInvoice = Json & {
  invoice_id: string;
  invoice_number: string;
  deposit_address: Address;
  webhook_secret: string;
};

/** POST /api/invoices of 150.00 USDC, sent, with a webhook to `webhookUrl`. */
export async function createInvoiceOn(apiUrl: string, webhookUrl: string): Promise<CreatedInvoice> {
  const response = await fetch(`${apiUrl}/api/invoices`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(
      invoiceRequest({
        line_items: [{ description: "Work", quantity: 2, unit_price: "75.00" }],
        webhook_url: webhookUrl,
      }),
    ),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedInvoice;
}

/** The invoice's status endpoint once it says `status`. */
export function waitForInvoiceStatus(
  apiUrl: string,
  invoiceId: string,
  status: string,
  timeoutMs = 60_000,
): Promise<Json> {
  return waitFor(
    `invoice ${invoiceId} to be ${status}`,
    async () => {
      const body = (await (
        await fetch(`${apiUrl}/api/invoices/${invoiceId}/status`)
      ).json()) as Json;
      return body.status === status && body;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

/** The `invoice.paid` webhook for `invoice`, checked to be signed with its secret. */
export async function expectPaidWebhook(
  received: ReceivedWebhook[],
  invoice: CreatedInvoice,
  txHash: string,
): Promise<void> {
  const hook = await waitFor(
    "the invoice.paid webhook",
    async () =>
      received.find((h) => (JSON.parse(h.body) as Json).invoice_id === invoice.invoice_id),
    { timeoutMs: EVENT_MS },
  );
  expect(JSON.parse(hook.body)).toMatchObject({
    type: "invoice.paid",
    invoice_number: invoice.invoice_number,
    status: "paid",
    paid_amount: "150.00",
    tx_hash: txHash,
  });
  const signature = createHmac("sha256", invoice.webhook_secret).update(hook.body).digest("hex");
  expect(hook.headers["x-service-signature"]).toBe(`sha256=${signature}`);
}
