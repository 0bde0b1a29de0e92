import { sendInvoice } from "../../app/invoices/sendInvoice.ts";
import type { AppDeps } from "../deps.ts";
import type { Router } from "../openapi.ts";
import { registerInvoiceStatusChange } from "./statusChange.ts";

/** `POST /api/invoices/{id}/send`: a draft emailed to its vendor, and `sent`. */
export function registerSendInvoice(app: Router, deps: AppDeps): void {
  registerInvoiceStatusChange(app, deps, {
    path: "/api/invoices/{id}/send",
    summary: "Send a draft invoice to the vendor",
    description:
      "Emails the vendor (hosted-invoice link, PDF attached) and moves a `draft` to `sent`. " +
      "Only drafts can be sent: any other status is a 409 (an invoice is emailed once; share `invoice_url` to remind).",
    answer: "The updated invoice",
    change: sendInvoice,
  });
}
