import { createRoute } from "@hono/zod-openapi";
import { invoiceStatusFacts } from "../../app/invoices/invoiceDetail.ts";
import { InvoiceIdParamSchema, InvoiceStatusResponseSchema } from "../../app/invoices/schema.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, openapiUnvalidated, type Router } from "../openapi.ts";
import { presentStatus } from "./present.ts";

const route = createRoute({
  method: "get",
  path: "/api/invoices/{id}/status",
  tags: ["Invoices"],
  summary: "Poll an invoice's status (no authentication)",
  description:
    "`overdue` is derived: reported while the stored status is `draft` or `sent` and `due_date` is before today (UTC). " +
    "`paid_amount` (total received), `tx_hash` and `paid_at` (the latest payment's) appear once anything was received: in `paid`, `partial` and `excess`. " +
    "`void` (an addition to spec §3.1): voided unpaid; a payment that still arrives changes nothing. `refunded_amount` appears once a refund was paid (an addition to §2.4).",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse("The status", InvoiceStatusResponseSchema),
    ...errorResponses(404, 429),
  },
});

export function registerInvoiceStatus(app: Router, deps: AppDeps): void {
  // Polled like the payment status: no zod validator (the id is any string; one that is not an
  // invoice's is a 404, invoiceStatusFacts).
  openapiUnvalidated(app, route, async (c) => {
    const { invoice, state, refunded } = await invoiceStatusFacts(
      deps,
      c.req.param("id") as string,
    );
    return c.json(presentStatus(invoice, state, refunded), 200);
  });
}
