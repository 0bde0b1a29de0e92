import type { AppDeps } from "../deps.ts";
import { NO_PROXIES, rateLimit } from "../middleware/rateLimit.ts";
import type { Router } from "../openapi.ts";
import { authenticate } from "./authenticate.ts";
import { OPEN_AUTH } from "./identity.ts";
import { keyRateLimit } from "./keyRateLimit.ts";

const REDELIVER = "/api/invoices/:id/webhooks/:event_id/redeliver";

/**
 * Registered after the abuse guards and before the routes: every /api request is
 * authenticated (api/auth/authenticate.ts), then charged to its key's budget; redelivery (which
 * makes Remit call out) and claims (which send email) also have budgets per client IP, and
 * redelivery one per key. The OpenAPI document gets its `bearerAuth` scheme.
 */
export function registerAuth(app: Router, deps: AppDeps): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      'An API key: `Authorization: Bearer remit_sk_…` (write) or `remit_rk_…` (read). See docs/api.md, "Who may call what".',
  });
  app.use("/api/*", authenticate({ db: deps.db, auth: deps.auth ?? OPEN_AUTH }));
  // The public PDF: a budget per client IP as large as the status polls' (a page links to it).
  if (deps.rateLimits)
    app.on(
      "GET",
      "/api/invoices/by-slug/:slug/pdf",
      rateLimit(deps.rateLimits.status, deps.rateLimits.trustedProxies, "PDF"),
    );
  const limits = deps.accountLimits;
  if (!limits) return;
  app.use("/api/*", keyRateLimit(limits.perKey, "API"));
  const trustedProxies = deps.rateLimits?.trustedProxies ?? NO_PROXIES;
  app.on("POST", REDELIVER, rateLimit(limits.redeliveries, trustedProxies, "redelivery"));
  app.on("POST", REDELIVER, keyRateLimit(limits.redeliveries, "redelivery"));
  app.on("POST", "/api/merchants/claim", rateLimit(limits.claims, trustedProxies, "claim"));
}
