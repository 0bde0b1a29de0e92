import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { clientAddress, type IsTrustedProxy } from "../../domain/clientAddress.ts";
import { RateLimiter } from "../../domain/rateLimiter.ts";
import { ApiError, errorResponse } from "../errors.ts";
import { requestHeader } from "../requestHeader.ts";

/** Requests per client IP and minute for each unauthenticated budget; 0 turns one off. */
export type RateLimits = {
  status: number;
  invoices: number;
  links: number;
  /** Gasless payment authorizations (POST /api/payments/{slug}/authorizations); unset: none. */
  authorizations?: number;
  /** The refund claim page ({PAY_URL}/refund/{token}), GET and POST; unset: none. */
  refundClaims?: number;
  /** Reverse proxies in front that append to X-Forwarded-For. */
  trustedProxies: ProxyTrust;
};

/** How many proxies append to X-Forwarded-For (TRUST_PROXY), and their addresses (TRUSTED_PROXIES). */
export type ProxyTrust = { hops: number; isTrusted: IsTrustedProxy };

/** No proxy in front: X-Forwarded-For is never believed (tests of the app alone). */
export const NO_PROXIES: ProxyTrust = { hops: 0, isTrusted: () => false };

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
  limiter: RateLimiter | undefined = perMinute === 0 ? undefined : new RateLimiter({ perMinute }),
): MiddlewareHandler {
  if (perMinute === 0 || !limiter) return (_c, next) => next();
  const limitHeader = String(perMinute);
  return (c, next) => {
    const client = clientOf(c, trustedProxies);
    const decision = limiter.take(client, Date.now());
    c.header("RateLimit-Limit", limitHeader);
    c.header("RateLimit-Remaining", String(decision.remaining));
    c.header("RateLimit-Reset", String(decision.resetSeconds));
    if (decision.allowed) return next();
    c.header("Retry-After", String(decision.retryAfterSeconds));
    return Promise.resolve(
      errorResponse(c, rateLimitedError(name, perMinute, decision.retryAfterSeconds)),
    );
  };
}

/** The client a request comes from, as the per-IP budgets count it (domain/clientAddress.ts). */
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

/** The 429 a per-IP budget answers (also written by api/payments/statusFastPath.ts). */
export const rateLimitedError = (name: string, perMinute: number, retryAfterSeconds: number) =>
  new ApiError(
    429,
    "rate_limited",
    `too many ${name} requests from your address (${perMinute} a minute); retry after ${retryAfterSeconds} s`,
  );
