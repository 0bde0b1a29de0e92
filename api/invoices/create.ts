import { createInvoice } from "../../app/invoices/createInvoice.ts";
import {
  CreateInvoiceResponseSchema,
  CreateInvoiceSchema,
  createInvoiceKnownKeys,
} from "../../app/invoices/schema.ts";
import { creationRoute, registerCreation } from "../creationRoute.ts";
import type { AppDeps } from "../deps.ts";
import type { Router } from "../openapi.ts";

const route = creationRoute({
  path: "/api/invoices",
  tags: ["Invoices"],
  summary: "Create an invoice",
  description:
    "Computes the total, provisions a deposit address, stores the invoice (its PDF is rendered from the stored record) and, unless `send_now` is false, emails the vendor. " +
    "Send an `Idempotency-Key` header to retry safely: the same key and body return the original 201, " +
    "the same key with a different body is a 409.",
  request: CreateInvoiceSchema,
  response: CreateInvoiceResponseSchema,
});

export function registerCreateInvoice(app: Router, deps: AppDeps): void {
  registerCreation(app, route, createInvoiceKnownKeys, (input, key, actor) =>
    createInvoice(deps, input, key, actor),
  );
}
