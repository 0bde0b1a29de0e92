import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import { type RateDecision, RateLimiter } from "../../../domain/rateLimiter.ts";
import { requestHeader } from "../../../internal/requestHeader.ts";
import { PlainLayout } from "../layout.tsx";
import type { DashboardEnv } from "../session.ts";

/**
 * The dashboard's forms that issue invoices (and so email a vendor) or move money: a loop of
 * them is the API's loop, so they are charged like the API, per client address (the API's own
 * invoice-creation buckets: one budget whichever surface issues) and per session (one signed-in
 * browser cannot spend another address's budget by hopping networks).
 */
export const ISSUING_FORMS = [
  "/invoices/new",
  "/links/new",
  "/schedules/new",
  "/schedules/:id/run",
  "/invoices/:id/void",
  "/invoices/:id/refunds",
  "/invoices/:id/credit-notes",
  "/settings/wallets",
  "/settings/payouts",
] as const;

/**
 * The per-address budget of POST /api/invoices (api/edge/httpEdge.ts `Budget`), as this
 * middleware charges it: the API's buckets, handed in by server/app.ts.
 */
export type AddressBudget = {
  charge: (peer: string | undefined, forwardedFor: string | undefined) => RateDecision;
};

function RateLimitedPage({ retryAfter }: { retryAfter: number }) {
  return (
    <PlainLayout title="Too many requests">
      <section class="card">
        <p>
          Nothing was done: too many invoices or payments were sent from this session or address in
          the last minute. Try again in {retryAfter} s.{" "}
          <a href="/dashboard">Back to the dashboard</a>.
        </p>
      </section>
    </PlainLayout>
  );
}

/**
 * The signed-in middleware for ISSUING_FORMS: `perMinute` per session, and the per-address
 * `budget` (shared with POST /api/invoices). Over either: a 429 page with Retry-After, before the
 * form is acted on. None (`perMinute` 0): every form passes.
 */
export function issuingLimit(
  perMinute: number,
  budget: AddressBudget | undefined,
): MiddlewareHandler<DashboardEnv> | null {
  if (perMinute === 0 && !budget) return null;
  const perSession = perMinute > 0 ? new RateLimiter({ perMinute }) : null;
  return async (c, next) => {
    const refuse = (retryAfter: number) => {
      c.header("Retry-After", String(retryAfter));
      return c.html(<RateLimitedPage retryAfter={retryAfter} />, 429);
    };
    if (perSession) {
      const decision = perSession.take(c.get("signedIn").csrf, Date.now());
      if (!decision.allowed) return refuse(decision.retryAfterSeconds);
    }
    if (budget) {
      // Under @hono/node-server the Node request is in c.env; absent under app.request().
      const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket
        .remoteAddress;
      const charge = budget.charge(peer, requestHeader(c, "x-forwarded-for"));
      if (!charge.allowed) return refuse(charge.retryAfterSeconds);
    }
    await next();
  };
}
