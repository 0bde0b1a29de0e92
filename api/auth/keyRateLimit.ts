import type { MiddlewareHandler } from "hono";
import { RateLimiter } from "../../domain/rateLimiter.ts";
import type { AppEnv } from "../appEnv.ts";
import { ApiError, errorResponse } from "../errors.ts";
import { identityOf } from "./identity.ts";

/**
 * Charges each request made with an API key to that key's bucket (the per-IP budgets charge
 * the client's address; a key used from many addresses is still one budget). Over it: 429
 * `rate_limited` with `Retry-After`. Requests without a key pass. Like the per-IP buckets, these
 * live in each API process.
 */
export function keyRateLimit(perMinute: number, name: string): MiddlewareHandler<AppEnv> {
  if (perMinute === 0) return (_c, next) => next();
  const limiter = new RateLimiter({ perMinute });
  return (c, next) => {
    const identity = identityOf(c);
    if (identity.kind !== "key") return next();
    const decision = limiter.take(identity.keyId, Date.now());
    if (decision.allowed) return next();
    c.header("Retry-After", String(decision.retryAfterSeconds));
    return Promise.resolve(
      errorResponse(
        c,
        new ApiError(
          "rate_limited",
          "rate_limited",
          `too many ${name} requests with this API key (${perMinute} a minute); retry after ${decision.retryAfterSeconds} s`,
        ),
      ),
    );
  };
}
