import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { clientAddress } from "../../domain/clientAddress.ts";
import type { RateLimiter } from "../../domain/rateLimiter.ts";
import { requestHeader } from "../../internal/requestHeader.ts";
import { type Budget, createBudget, type ProxyTrust } from "../edge/httpEdge.ts";
import { errorResponse } from "../errors.ts";

export { NO_PROXIES, type ProxyTrust, type RateLimits } from "../edge/httpEdge.ts";

/**
 * A middleware charging each request to its client's bucket: over budget, a 429
 * `rate_limited` with `Retry-After` (seconds) before anything else is done (the body is never
 * read). Every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.
 * The buckets live in this process: with N API replicas, each enforces its own budget.
 */
export function rateLimit(
  perMinute: number,
  trustedProxies: ProxyTrust,
  name: string,
  limiter?: RateLimiter,
): MiddlewareHandler {
  return chargeBudget(createBudget({ name, perMinute, trust: trustedProxies, limiter }));
}

/**
 * The Hono adapter of a budget of the HTTP edge (api/edge/httpEdge.ts): the same charge, headers
 * and 429 as the status fast path's; none: passes every request.
 */
export function chargeBudget(budget: Budget | undefined): MiddlewareHandler {
  if (!budget) return (_c, next) => next();
  return (c, next) => {
    // Under @hono/node-server the Node request is in c.env; absent under app.request() (tests).
    const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket
      .remoteAddress;
    const charge = budget.charge(peer, requestHeader(c, "x-forwarded-for"));
    const headers = charge.headers;
    for (let i = 0; i < headers.length; i += 2) c.header(headers[i] as string, headers[i + 1]);
    if (charge.allowed) return next();
    return Promise.resolve(errorResponse(c, budget.refusal(charge)));
  };
}

/**
 * The client a request comes from, as the per-IP budgets count it (domain/clientAddress.ts):
 * for the one-time links' per-client caps, which are counted in the database, not in a budget.
 */
export function clientOf(c: Context, trustedProxies: ProxyTrust): string {
  // Under @hono/node-server the Node request is in c.env; absent under app.request() (tests).
  const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket
    .remoteAddress;
  return clientAddress(
    peer,
    requestHeader(c, "x-forwarded-for"),
    trustedProxies.hops,
    trustedProxies.isTrusted,
  );
}
