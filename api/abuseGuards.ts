import { requestHeader } from "../internal/requestHeader.ts";
import type { AppDeps } from "./deps.ts";
import { type Budget, createBudget } from "./edge/httpEdge.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { MAX_BODY_BYTES } from "./middleware/jsonBody.ts";
import { chargeBudget, rateLimit } from "./middleware/rateLimit.ts";
import type { Router } from "./openapi.ts";

/**
 * Registered before the routes, so they run first: a body announced larger than the API ever
 * accepts is refused on every /api route (the routes that take none included), and the
 * unauthenticated endpoints are rate-limited per client IP (off when deps carry no limits).
 * The status routes charge `statusBudget`, the HTTP edge's (api/edge/httpEdge.ts; off:
 * undefined), whose buckets the status fast path charges too: one budget, whichever path answers.
 * Returns the invoice-creation budget, which the dashboard's issuing forms charge too.
 */
export function registerAbuseGuards(
  app: Router,
  deps: Pick<AppDeps, "rateLimits">,
  statusBudget: Budget | undefined,
): { invoiceBudget: Budget | undefined } {
  app.use("/api/*", (c, next) => {
    const length = requestHeader(c, "content-length");
    if (length !== undefined && Number(length) > MAX_BODY_BYTES) {
      // Closing the connection spares us reading (and discarding) the rest of the body.
      c.header("Connection", "close");
      return Promise.resolve(
        errorResponse(
          c,
          new ApiError(
            "too_large",
            "payload_too_large",
            `the request body must be at most ${MAX_BODY_BYTES} bytes`,
          ),
        ),
      );
    }
    return next();
  });
  const limits = deps.rateLimits;
  if (!limits) return { invoiceBudget: undefined };
  // One budget for both status endpoints: a page polls one or the other (and the status fast
  // path, api/payments/statusFastPath.ts, charges the same buckets through the edge).
  const status = chargeBudget(statusBudget);
  app.on(
    "GET",
    [
      "/api/payments/status/:slug",
      "/api/invoices/:id/status",
      "/api/payments/:slug/authorizations/:id",
    ],
    status,
  );
  // Run-now issues an invoice like POST /api/invoices: one budget for both, or a loop of run-now
  // would issue (and email) past the creation limit.
  const invoiceBudget = createBudget({
    name: "invoice creation",
    perMinute: limits.invoices,
    trust: limits.trustedProxies,
  });
  app.on("POST", ["/api/invoices", "/api/invoice-schedules/:id/run"], chargeBudget(invoiceBudget));
  app.on("POST", "/api/links", rateLimit(limits.links, limits.trustedProxies, "link creation"));
  if (limits.x402 !== undefined)
    app.on("GET", "/api/x402/:slug", rateLimit(limits.x402, limits.trustedProxies, "x402 payment"));
  if (limits.authorizations !== undefined)
    app.on(
      "POST",
      "/api/payments/:slug/authorizations",
      rateLimit(limits.authorizations, limits.trustedProxies, "payment authorization"),
    );
  return { invoiceBudget };
}
