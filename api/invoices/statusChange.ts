import { createRoute } from "@hono/zod-openapi";
import type { Actor } from "../../app/actor.ts";
import { InvoiceIdParamSchema, InvoiceSchema } from "../../app/invoices/schema.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, keySecurity, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";

/** What the status changes of an invoice's own (sending, voiding) return: the invoice now. */
type ChangedInvoice = Parameters<typeof invoiceBody>[1];

/**
 * Registers `POST /api/invoices/{id}/…`, a key's change of the invoice's status: `change` (its
 * app/invoices use case) on the invoice of the path, answered with the invoice as it is then
 * (200, `answer` its description in the document); 409 when its status does not allow it.
 */
export function registerInvoiceStatusChange(
  app: Router,
  deps: AppDeps,
  spec: {
    path: `/api/invoices/{id}/${string}`;
    summary: string;
    description: string;
    answer: string;
    change: (deps: AppDeps, actor: Actor, id: string) => Promise<ChangedInvoice>;
  },
): void {
  const route = createRoute({
    method: "post",
    path: spec.path,
    tags: ["Invoices"],
    summary: spec.summary,
    security: keySecurity,
    description: spec.description,
    request: { params: InvoiceIdParamSchema },
    responses: {
      200: jsonResponse(spec.answer, InvoiceSchema),
      ...errorResponses(401, 403, 404, 409),
    },
  });
  app.openapi(route, async (c) => {
    const changed = await spec.change(deps, actorOf(c), c.req.valid("param").id);
    return c.json(await invoiceBody(deps, changed), 200);
  });
}
