import type { IncomingMessage } from "node:http";
import { type Context, Hono } from "hono";
import { getAddress } from "viem";
import {
  claimableRefund,
  claimRefundTo,
  refundClaimView,
  refusedRefundAddress,
} from "../app/refunds/claimRefund.ts";
import type { Db } from "../db/database.ts";
import { CLAIM_TOKEN_PATTERN } from "../domain/apiKeys.ts";
import { clientAddress, type IsTrustedProxy } from "../domain/clientAddress.ts";
import { RateLimiter } from "../domain/rateLimiter.ts";
import type { Logger } from "../internal/logger.ts";
import { formPageHeaders, isCrossSite } from "./formGuards.ts";
import { RefundClaimedPage, RefundClaimPage, RefundClaimRefusedPage } from "./refundPages.tsx";

export type RefundPageDeps = {
  db: Db;
  payUrl: string;
  log: Pick<Logger, "info" | "warn">;
  /**
   * Requests per client IP and minute on the claim page, GET and POST together
   * (RATE_LIMIT_REFUNDS_PER_MIN; 0 or none: unlimited), and the proxies in front.
   */
  limit?: { perMinute: number; trustedProxies: { hops: number; isTrusted: IsTrustedProxy } };
};

/**
 * `{PAY_URL}/refund/{token}`, the link of a refund claim. GET shows the amount, the warning
 * about exchange addresses and a form, and changes nothing (mail scanners open links); the
 * form's POST (same origin only: Origin / Sec-Fetch-Site) uses the token once and gives the
 * refund its destination, whose update trigger queues its payment. A refused address shows the
 * form again with the reason, the link unused. Unknown, tampered, expired or used: 410, one
 * page for all. Rate-limited per client IP.
 */
export function refundRoutes(deps: RefundPageDeps): Hono {
  const app = new Hono();
  const refused = (c: Context) => c.html(<RefundClaimRefusedPage />, 410);
  const perMinute = deps.limit?.perMinute ?? 0;
  if (deps.limit && perMinute > 0) {
    const { hops, isTrusted } = deps.limit.trustedProxies;
    const limiter = new RateLimiter({ perMinute });
    app.use("/refund/*", async (c, next) => {
      const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket
        .remoteAddress;
      const client = clientAddress(peer, c.req.header("x-forwarded-for"), hops, isTrusted);
      const decision = limiter.take(client, Date.now());
      if (decision.allowed) return next();
      formPageHeaders(c);
      c.header("Retry-After", String(decision.retryAfterSeconds));
      return c.text(`Too many requests: retry after ${decision.retryAfterSeconds} s.`, 429);
    });
  }

  app.get("/refund/:token", async (c) => {
    formPageHeaders(c);
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    const refund = await claimableRefund(deps.db, token);
    if (!refund) return refused(c);
    return c.html(<RefundClaimPage refund={await refundClaimView(deps.db, refund)} />);
  });

  app.post("/refund/:token", async (c) => {
    formPageHeaders(c);
    if (isCrossSite(c, deps.payUrl)) {
      deps.log.warn("refund claim refused: cross-site form post");
      return c.html(<RefundClaimRefusedPage />, 403);
    }
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    const refund = await claimableRefund(deps.db, token);
    if (!refund) return refused(c);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const address = typeof form.address === "string" ? form.address.trim() : "";
    const problem =
      (await refusedRefundAddress(deps.db, refund, address)) ??
      (form.confirm === "yes" ? null : "Confirm that this is a wallet you control.");
    if (problem)
      return c.html(
        <RefundClaimPage
          refund={await refundClaimView(deps.db, refund)}
          error={problem}
          value={address.slice(0, 100)}
        />,
        400,
      );
    const to = getAddress(address);
    const requestId = (c.get("requestId" as never) as string | undefined) ?? null;
    const claimed = await claimRefundTo(deps.db, token, to, requestId);
    if (!claimed) return refused(c);
    deps.log.info("refund claimed", { refund_id: claimed.id });
    return c.html(<RefundClaimedPage amount={claimed.amount} to={to} />);
  });
  return app;
}
