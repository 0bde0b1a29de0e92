import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { jsonBody } from "../middleware/jsonBody.ts";
import { errorResponses, type Router } from "../openapi.ts";
import { createInvoice } from "./createInvoice.ts";
import { CreateInvoiceResponseSchema, CreateInvoiceSchema } from "./schema.ts";

const route = createRoute({
  method: "post",
  path: "/api/invoices",
  tags: ["Invoices"],
  summary: "Create an invoice",
  description:
    "Computes the total, renders the PDF, provisions a deposit address and, unless `send_now` is false, emails the vendor. " +
    "Send an `Idempotency-Key` header to retry safely: the same key and body return the original 201, " +
    "the same key with a different body is a 409.",
  middleware: [jsonBody] as const,
  request: {
    headers: z.object({
      "idempotency-key": z
        .string()
        .regex(/^[\x21-\x7e]{1,255}$/, "must be 1–255 visible ASCII characters")
        .optional(),
    }),
    body: { required: true, content: { "application/json": { schema: CreateInvoiceSchema } } },
  },
  responses: {
    201: {
      description: "Created",
      content: { "application/json": { schema: CreateInvoiceResponseSchema } },
    },
    ...errorResponses(400, 409, 413, 415, 429),
  },
});

export function registerCreateInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const key = c.req.valid("header")["idempotency-key"];
    const { status, body } = await createInvoice(deps, input, key);
    deps.log.info(status === 201 ? "invoice created" : "invoice creation replayed", {
      invoice_id: body.invoice_id,
      invoice_number: body.invoice_number,
      total_amount: body.total_amount,
    });
    return c.json(body, 201);
  });
}
