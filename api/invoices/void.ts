import { voidInvoice } from "../../app/invoices/voidInvoice.ts";
import type { AppDeps } from "../deps.ts";
import type { Router } from "../openapi.ts";
import { registerInvoiceStatusChange } from "./statusChange.ts";

/** `POST /api/invoices/{id}/void`: an invoice nothing was paid on, cancelled. */
export function registerVoidInvoice(app: Router, deps: AppDeps): void {
  registerInvoiceStatusChange(app, deps, {
    path: "/api/invoices/{id}/void",
    summary: "Void an unpaid invoice",
    description:
      "Cancels an invoice nothing was paid on (`draft`, `sent` or `overdue`): its stored status becomes `void` (an addition to spec §3.1), the hosted page says so and offers no way to pay, and a vendor who was emailed the invoice is emailed that it is void. " +
      "Any other status is a 409 `invoice_not_voidable`; a relayed payment (gasless or x402) accepted and not yet counted is a 409 `payment_in_progress` (void once it has settled or failed). A payment that still reaches the deposit address changes no status: it is recorded as an unexpected payment (`invoice.unexpected_payment` to the webhook_url, an email to you) and held for refund (`POST /api/invoices/{id}/refunds`).",
    answer: "The void invoice",
    change: voidInvoice,
  });
}
