import { randomUUID } from "node:crypto";
import { HTTPException } from "hono/http-exception";
import { pageRoutes } from "../web/routes.tsx";
import { registerAbuseGuards } from "./abuseGuards.ts";
import type { AppDeps } from "./deps.ts";
import { outboxRoutes } from "./dev/outbox.ts";
import { renderDocs } from "./docs.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { checkHealth } from "./health.ts";
import { registerCreateInvoice } from "./invoices/create.ts";
import { registerGetInvoice } from "./invoices/get.ts";
import { registerInvoicePdf } from "./invoices/pdf.ts";
import { createInvoiceKnownKeys } from "./invoices/schema.ts";
import { registerSendInvoice } from "./invoices/send.ts";
import { registerInvoiceStatus } from "./invoices/status.ts";
import { registerInvoiceWebhooks } from "./invoices/webhooks.ts";
import { registerCreateLink } from "./links/create.ts";
import { createRouter } from "./openapi.ts";
import { registerPaymentStatus } from "./payments/status.ts";

export type { AppDeps };

/** The HTTP application: JSON API, hosted pages and health. Pure wiring; no I/O at import. */
export function createApp(deps: AppDeps) {
  const app = createRouter(createInvoiceKnownKeys);

  app.use(async (c, next) => {
    const id = randomUUID();
    c.set("requestId" as never, id as never);
    c.header("X-Request-Id", id);
    await next();
  });
  registerAbuseGuards(app, deps);

  app.get("/health", async (c) => {
    const report = await checkHealth(deps);
    return c.json(report, report.status === "ok" ? 200 : 503);
  });

  registerCreateInvoice(app, deps);
  registerGetInvoice(app, deps);
  registerInvoicePdf(app, deps);
  registerSendInvoice(app, deps);
  registerInvoiceStatus(app, deps);
  registerInvoiceWebhooks(app, deps);
  registerCreateLink(app, deps);
  registerPaymentStatus(app, deps);

  const document = {
    openapi: "3.1.0",
    info: {
      title: "Remit API",
      version: "1",
      description:
        "USDC invoices and payment links on Base (chain 8453). Amounts are decimal strings of USDC; errors are `{ error: { code, message, request_id, fields? } }`.",
    },
  };
  app.doc31("/openapi.json", document);
  app.get("/docs", (c) => c.html(renderDocs(app.getOpenAPI31Document(document) as never)));

  app.route("/", pageRoutes(deps));
  if (deps.outboxDir) app.route("/", outboxRoutes(deps.outboxDir));

  app.notFound((c) =>
    errorResponse(c, new ApiError(404, "not_found", `no route for ${c.req.method} ${c.req.path}`)),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, new ApiError(error.status as 400, "bad_request", error.message));
    }
    deps.log.error("unhandled error", {
      request_id: c.get("requestId" as never),
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return errorResponse(
      c,
      new ApiError(500, "internal_error", "something went wrong on our side; quote the request id"),
    );
  });
  return app;
}
