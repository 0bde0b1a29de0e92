import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Registry } from "prom-client";
import { registerAbuseGuards } from "../api/abuseGuards.ts";
import type { AppEnv } from "../api/appEnv.ts";
import { registerAuditRoute } from "../api/audit/list.ts";
import { registerAuth } from "../api/auth/registerAuth.ts";
import { registerCreditNoteRoutes } from "../api/creditNotes/routes.ts";
import type { AppDeps } from "../api/deps.ts";
import { outboxRoutes } from "../api/dev/outbox.ts";
import { registerDocs } from "../api/docs.ts";
import { createHttpEdge } from "../api/edge/httpEdge.ts";
import { ApiError, errorResponse } from "../api/errors.ts";
import { registerEventRoutes } from "../api/events/routes.ts";
import { registerExportInvoices } from "../api/exports/invoices.ts";
import { registerExportPayments } from "../api/exports/payments.ts";
import { checkHealth } from "../api/health.ts";
import { registerCreateInvoice } from "../api/invoices/create.ts";
import { registerInvoiceEInvoice } from "../api/invoices/einvoice.ts";
import { registerGetInvoice } from "../api/invoices/get.ts";
import { registerInvoicePdf } from "../api/invoices/pdf.ts";
import { registerSendInvoice } from "../api/invoices/send.ts";
import { registerInvoiceStatus } from "../api/invoices/status.ts";
import { registerVoidInvoice } from "../api/invoices/void.ts";
import { registerInvoiceWebhooks } from "../api/invoices/webhooks.ts";
import { registerKeyRoutes } from "../api/keys/routes.ts";
import { registerCreateLink } from "../api/links/create.ts";
import { registerGetLink } from "../api/links/get.ts";
import { registerListInvoices } from "../api/lists/invoices.ts";
import { registerListLinks } from "../api/lists/links.ts";
import { registerListPayments } from "../api/lists/payments.ts";
import { registerMemberRoutes } from "../api/members/routes.ts";
import { registerClaimRoute } from "../api/merchants/claim.ts";
import { registerMerchantSettings } from "../api/merchants/settings.ts";
import { registerWalletRoutes } from "../api/merchants/wallets.ts";
import { createHttpMetrics } from "../api/metrics/httpMetrics.ts";
import { registerMetricsRoute } from "../api/metrics/metricsRoute.ts";
import { registerServiceMetrics } from "../api/metrics/serviceMetrics.ts";
import { operationalOnly } from "../api/middleware/operationalOnly.ts";
import { clientOf, NO_PROXIES, rateLimit } from "../api/middleware/rateLimit.ts";
import { requestContext } from "../api/middleware/requestContext.ts";
import { createRouter } from "../api/openapi.ts";
import { registerPaymentAuthorizations } from "../api/payments/authorizations.ts";
import { registerPaymentStatus } from "../api/payments/status.ts";
import { createStatusFastPath } from "../api/payments/statusFastPath.ts";
import { registerPayoutRoutes } from "../api/payouts/routes.ts";
import { registerRefundRoutes } from "../api/refunds/routes.ts";
import { registerReminderRoutes } from "../api/reminders/routes.ts";
import { registerReceivables } from "../api/reports/receivables.ts";
import { registerScheduleRoutes } from "../api/schedules/routes.ts";
import { registerTransactionLookup } from "../api/transactions/get.ts";
import { createTransactionLookup } from "../api/transactions/lookupTransaction.ts";
import { registerWebhookEndpointRoutes } from "../api/webhookEndpoints/routes.ts";
import { registerX402Resource } from "../api/x402/resource.ts";
import { isTransientDatabaseError } from "../db/transientError.ts";
import { isDeclared } from "../domain/accessPolicy.ts";
import { redactPath } from "../internal/redactPath.ts";
import { claimRoutes } from "../web/claimRoutes.tsx";
import { dashboardRoutes } from "../web/dashboard/routes/index.tsx";
import { issuingLimit } from "../web/dashboard/routes/issuingLimit.tsx";
import { refundRoutes } from "../web/refundRoutes.tsx";
import { pageRoutes } from "../web/routes.tsx";

export type { AppDeps };

/** What a 503 for an unavailable database tells clients to wait before retrying. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

/** What an operational endpoint answers a request that is neither trusted local nor carries the token. */
const refuseOperational = (c: Context) => {
  c.header("WWW-Authenticate", 'Bearer realm="remit operations"');
  return errorResponse(
    c,
    new ApiError(
      "unauthenticated",
      "unauthorized",
      "operational endpoint: served to this machine (the OPS_PORT listener), or with Authorization: Bearer <OPS_TOKEN>",
    ),
  );
};

/**
 * Refuses to build an app with an /api or /dashboard route the authorization policy does not
 * declare (domain/accessPolicy.ts): who may call a route is decided before it can be served.
 */
function assertEveryRouteDeclared(routes: readonly { method: string; path: string }[]): void {
  const undeclared = routes.filter(
    (route) =>
      route.method !== "ALL" &&
      /^\/(api|dashboard)(\/|$)/.test(route.path) &&
      !route.path.includes("*") &&
      !isDeclared(route.method, route.path),
  );
  if (undeclared.length > 0)
    throw new Error(
      `routes without an authorization policy (domain/accessPolicy.ts): ${undeclared.map((r) => `${r.method} ${r.path}`).join(", ")}`,
    );
}

/** The HTTP application: JSON API, hosted pages and health. Pure wiring; no I/O at import. */
export function createApp(deps: AppDeps) {
  return createApi(deps).app;
}

/**
 * The HTTP application and, with a status cache, the status fast path to put in front of it at
 * the node:http level (api/payments/statusFastPath.ts): both go through one HTTP edge
 * (api/edge/httpEdge.ts): request ids, the status budget's buckets, metrics and access line.
 * `opsApp` is the operational listener's application (server/main.ts serves it on
 * 127.0.0.1:OPS_PORT): `/metrics` and the email capture, for this machine itself.
 */
export function createApi(deps: AppDeps) {
  const app = createRouter();

  // Each app has its own registry: tests build several apps in one process.
  const metrics = new Registry();
  const edge = createHttpEdge({
    log: deps.log,
    metrics: createHttpMetrics(metrics),
    rateLimits: deps.rateLimits,
  });
  app.use(requestContext(edge));
  registerServiceMetrics(metrics, deps);
  // Operational: the operator's token, or this machine itself where the public port may trust
  // what a request looks like (docs/operations.md, "Listeners").
  const trustLocal = deps.opsTrustLocal ?? true;
  app.use("/metrics", operationalOnly(deps.opsToken, refuseOperational, trustLocal));
  registerMetricsRoute(app, metrics);
  // The loopback listener no reverse proxy of the public port reaches; it still checks Host and
  // Origin, so a web page of another site in a browser here (DNS rebinding) is refused.
  const opsApp = new Hono<AppEnv>();
  opsApp.use("/metrics", operationalOnly(deps.opsToken, refuseOperational));
  registerMetricsRoute(opsApp, metrics);
  const { invoiceBudget } = registerAbuseGuards(app, deps, edge.statusBudget);
  registerAuth(app, deps);
  const statusFastPath =
    deps.statusCache &&
    createStatusFastPath({ statusCache: deps.statusCache, auth: deps.auth, edge });

  app.get("/health", async (c) => {
    const report = await checkHealth(deps);
    return c.json(report, report.status === "ok" ? 200 : 503);
  });

  registerCreateInvoice(app, deps);
  registerGetInvoice(app, deps);
  registerInvoicePdf(app, deps);
  registerInvoiceEInvoice(app, deps);
  registerSendInvoice(app, deps);
  registerInvoiceStatus(app, deps);
  registerInvoiceWebhooks(app, deps);
  registerCreateLink(app, deps);
  registerPaymentStatus(app, deps);
  registerClaimRoute(app, deps);
  registerKeyRoutes(app, deps);
  registerMemberRoutes(app, deps);
  registerWalletRoutes(app, deps);
  registerPayoutRoutes(app, deps);
  registerMerchantSettings(app, deps);
  registerAuditRoute(app, deps);
  registerPaymentAuthorizations(app, deps);
  registerX402Resource(app, deps);
  registerVoidInvoice(app, deps);
  registerRefundRoutes(app, deps);
  registerCreditNoteRoutes(app, deps);
  registerWebhookEndpointRoutes(app, deps);
  registerEventRoutes(app, deps);
  // A merchant's lists, a link's details and the CSV exports.
  registerListInvoices(app, deps);
  registerListLinks(app, deps);
  registerGetLink(app, deps);
  registerListPayments(app, deps);
  registerExportInvoices(app, deps);
  registerExportPayments(app, deps);
  // Receivables on autopilot: invoice schedules, reminders, aged receivables.
  registerScheduleRoutes(app, deps);
  registerReminderRoutes(app, deps);
  registerReceivables(app, deps);
  // One lookup service (and per-IP budget) for the API route and the pages' "Paid but not showing?" box.
  const transactionLookup = createTransactionLookup(deps);
  registerTransactionLookup(app, transactionLookup);

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
  registerDocs(app, document);

  app.route("/", pageRoutes({ ...deps, paidCheck: transactionLookup }));
  app.route("/", claimRoutes(deps));
  const proxies = deps.rateLimits?.trustedProxies ?? NO_PROXIES;
  app.route(
    "/",
    dashboardRoutes(deps, {
      clientOf: (c) => clientOf(c, proxies),
      // Per client IP, as on claims (RATE_LIMIT_CLAIMS_PER_MIN).
      signInRateLimit: deps.accountLimits
        ? rateLimit(deps.accountLimits.claims, proxies, "sign-in")
        : null,
      // Per session and per client IP, sharing POST /api/invoices' buckets (RATE_LIMIT_INVOICES_PER_MIN).
      issuing: issuingLimit(deps.rateLimits?.invoices ?? 0, invoiceBudget),
    }),
  );
  app.route(
    "/",
    refundRoutes({
      ...deps,
      limit: deps.rateLimits && {
        perMinute: deps.rateLimits.refundClaims ?? 0,
        trustedProxies: deps.rateLimits.trustedProxies,
      },
    }),
  );
  if (deps.outboxDir) {
    // Without a key of the stack's, no key could be the worker's: a random one takes nothing.
    const apiKey = deps.outboxKey ?? `unusable-${crypto.randomUUID()}`;
    app.route("/", outboxRoutes(deps.outboxDir, { token: deps.opsToken, trustLocal, apiKey }));
    opsApp.route("/", outboxRoutes(deps.outboxDir, { token: deps.opsToken, apiKey }));
  }
  opsApp.notFound((c) =>
    errorResponse(
      c,
      new ApiError("not_found", "not_found", `no route for ${c.req.method} ${c.req.path}`),
    ),
  );

  assertEveryRouteDeclared(app.routes);

  app.notFound((c) =>
    errorResponse(
      c,
      new ApiError("not_found", "not_found", `no route for ${c.req.method} ${c.req.path}`),
    ),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(
        c,
        new ApiError("invalid", "bad_request", error.message),
        error.status as ContentfulStatusCode,
      );
    }
    if (isTransientDatabaseError(error)) {
      // Down, restarting, out of connections or too slow: a retry soon may well succeed.
      deps.log.warn("database unavailable", {
        request_id: c.get("requestId"),
        path: redactPath(c.req.path),
        error,
      });
      c.header("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
      return errorResponse(
        c,
        new ApiError(
          "unavailable",
          "database_unavailable",
          "the database is unavailable or overloaded; retry shortly (see Retry-After)",
        ),
      );
    }
    deps.log.error("unhandled error", {
      request_id: c.get("requestId"),
      method: c.req.method,
      path: redactPath(c.req.path),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return errorResponse(
      c,
      new ApiError(
        "internal",
        "internal_error",
        "something went wrong on our side; quote the request id",
      ),
    );
  });
  return { app, statusFastPath, opsApp };
}
