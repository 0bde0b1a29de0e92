import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress, type IsTrustedProxy } from "../../domain/clientAddress.ts";
import { type RateDecision, RateLimiter } from "../../domain/rateLimiter.ts";
import type { Logger } from "../../internal/logger.ts";
import { redactPath } from "../../internal/redactPath.ts";
import { ApiError, errorBody } from "../errors.ts";
import type { HttpMetrics } from "../metrics/httpMetrics.ts";
import { methodLabel } from "../metrics/routePattern.ts";
import { requestIdFrom } from "../requestId.ts";

/** Requests per client IP and minute for each unauthenticated budget; 0 turns one off. */
export type RateLimits = {
  status: number;
  invoices: number;
  links: number;
  /** Gasless payment authorizations (POST /api/payments/{slug}/authorizations); unset: none. */
  authorizations?: number;
  /** The x402 resource (GET /api/x402/{slug}), paid or not; unset: none. */
  x402?: number;
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
 * The HTTP edge: what every request meets before and after the route that answers it, the same
 * for both ways a request is served (docs/architecture.md, "One HTTP edge for both paths"): the
 * Hono app, through thin middleware (api/middleware/requestContext.ts and rateLimit.ts), and the
 * status fast path at the node:http level (api/payments/statusFastPath.ts), through `begin` and
 * `answer`. It gives the request its id, resolves the client address behind trusted proxies,
 * charges a per-client budget (the same buckets, whichever path answers), and records the HTTP
 * metrics and the access line. Per request it costs what the status endpoint can afford: no
 * promise, no WHATWG object, and the access line is only built when debug lines are written.
 */
export type HttpEdge = {
  /** The status budget, one set of buckets for every status route and both paths; off: absent. */
  readonly statusBudget: Budget | undefined;
  /** The request's id: the caller's sane `X-Request-Id`, or a fresh UUID (api/requestId.ts). */
  requestId: (header: string | undefined) => string;
  /** A node:http request entering the edge: its id, its start, and `budget`'s charge. */
  begin: (request: IncomingMessage, route: string, budget: Budget | undefined) => NodeExchange;
  /**
   * Writes `answer` (or, over budget, the edge's 429 in its place) with the edge's headers, in
   * the names and order the Hono path sends them, then ends the exchange.
   */
  answer: (response: ServerResponse, exchange: NodeExchange, answer: Answer) => void;
  /** A request leaving the edge: the HTTP metrics and the access (debug) line. */
  end: (exchange: Exchange, status: number) => void;
};

/** One request through the edge, as `end` records it. */
export type Exchange = {
  requestId: string;
  /** `performance.now()` when the request entered the edge. */
  started: number;
  /** The method's metrics label (routePattern.ts's methodLabel). */
  method: string;
  /** The route's pattern (`/api/payments/status/:slug`), never the raw path. */
  route: string;
  /** The path, without the query; logged redacted. */
  path: string;
};

/** A request entered at the node:http level (`HttpEdge.begin`). */
export type NodeExchange = Exchange & {
  /** The budget's headers (`ratelimit-*`, refused also `retry-after`) as name, value pairs. */
  rateHeaders: readonly string[];
  /** Over budget: the 429 to answer instead of the route's answer. */
  refusal: Answer | undefined;
};

/**
 * An answer at the node:http level. Its headers are name, value pairs, lower-case, sorted, and
 * sort before the edge's (`ratelimit-*`, `x-request-id`), as on the Hono path's sorted headers.
 */
export type Answer = { status: number; headers: readonly string[]; body: string };

/** What a budget decided for one request, and the headers every answer to it carries. */
export type Charge = RateDecision & {
  /** The client the request was charged to (domain/clientAddress.ts). */
  client: string;
  /** `ratelimit-limit`, `-remaining`, `-reset` and, refused, `retry-after`: name, value pairs. */
  headers: string[];
};

/**
 * Requests per client address and minute (`name` for the 429's message), in buckets of its own
 * (`limiter`): one budget may be charged from several routes and both paths.
 */
export type Budget = {
  readonly name: string;
  readonly perMinute: number;
  /** Charges one request from the socket's `peer`, believing X-Forwarded-For as far as `trust`. */
  charge: (peer: string | undefined, forwardedFor: string | undefined) => Charge;
  /** The 429 `rate_limited` of a refused charge. */
  refusal: (charge: Charge) => ApiError;
};

/** A budget of `perMinute` (0: none, undefined), charged to the client address `trust` resolves. */
export function createBudget(options: {
  name: string;
  perMinute: number;
  trust: ProxyTrust;
  limiter?: RateLimiter | undefined;
}): Budget | undefined {
  const { name, perMinute, trust } = options;
  if (perMinute === 0) return undefined;
  const limiter = options.limiter ?? new RateLimiter({ perMinute });
  const limitHeader = String(perMinute);
  return {
    name,
    perMinute,
    charge: (peer, forwardedFor) => {
      const client = clientAddress(peer, forwardedFor, trust.hops, trust.isTrusted);
      const decision = limiter.take(client, Date.now());
      const headers = [
        "ratelimit-limit",
        limitHeader,
        "ratelimit-remaining",
        String(decision.remaining),
        "ratelimit-reset",
        String(decision.resetSeconds),
      ];
      if (!decision.allowed) headers.push("retry-after", String(decision.retryAfterSeconds));
      // Field by field, not a spread: one object of one shape, on every status poll.
      return {
        allowed: decision.allowed,
        limit: decision.limit,
        remaining: decision.remaining,
        retryAfterSeconds: decision.retryAfterSeconds,
        resetSeconds: decision.resetSeconds,
        client,
        headers,
      };
    },
    refusal: (charge) => rateLimitedError(name, perMinute, charge.retryAfterSeconds),
  };
}

/** The 429 a per-client budget answers. */
export const rateLimitedError = (name: string, perMinute: number, retryAfterSeconds: number) =>
  new ApiError(
    "rate_limited",
    "rate_limited",
    `too many ${name} requests from your address (${perMinute} a minute); retry after ${retryAfterSeconds} s`,
  );

/** The headers of the edge's 429 at the node:http level, as Hono's `c.json` sends them. */
const REFUSAL_HEADERS = ["content-type", "application/json"];

/**
 * The edge of one app: its metrics and logger, and the status budget's buckets (per-client
 * budgets off when `rateLimits` is absent).
 */
export function createHttpEdge(options: {
  log: Logger;
  metrics: HttpMetrics;
  rateLimits?: RateLimits | undefined;
}): HttpEdge {
  const { log, metrics, rateLimits } = options;
  const statusBudget =
    rateLimits &&
    createBudget({
      name: "status",
      perMinute: rateLimits.status,
      trust: rateLimits.trustedProxies,
    });

  const end = (exchange: Exchange, status: number) => {
    const ms = performance.now() - exchange.started;
    const { method, route } = exchange;
    metrics.observe(method, route, status, ms / 1000);
    // Debug: the status endpoint alone serves thousands per second; /metrics has the counts.
    if (log.isEnabled?.("debug") ?? true)
      log.debug("request", {
        request_id: exchange.requestId,
        method,
        route,
        status,
        path: redactPath(exchange.path),
        duration_ms: Math.round(ms * 10) / 10,
      });
  };

  return {
    statusBudget,
    requestId: requestIdFrom,
    begin: (request, route, budget) => {
      const started = performance.now();
      const headers = request.headers;
      const requestId = requestIdFrom(headers["x-request-id"] as string | undefined);
      const url = request.url as string;
      const query = url.indexOf("?");
      const exchange: NodeExchange = {
        requestId,
        started,
        method: methodLabel(request.method as string),
        route,
        path: query < 0 ? url : url.slice(0, query),
        rateHeaders: [],
        refusal: undefined,
      };
      if (budget) {
        const charge = budget.charge(
          request.socket.remoteAddress,
          headers["x-forwarded-for"] as string | undefined,
        );
        exchange.rateHeaders = charge.headers;
        if (!charge.allowed)
          exchange.refusal = {
            status: 429,
            headers: REFUSAL_HEADERS,
            body: JSON.stringify(errorBody(budget.refusal(charge), requestId)),
          };
      }
      return exchange;
    },
    answer: (response, exchange, answer) => {
      const { status, headers, body } = exchange.refusal ?? answer;
      // Names and order as the Hono path sends them: its WHATWG Headers sort and lower-case,
      // and @hono/node-server adds Content-Length.
      response.writeHead(status, [
        ...headers,
        ...exchange.rateHeaders,
        "x-request-id",
        exchange.requestId,
        "Content-Length",
        String(Buffer.byteLength(body)),
      ]);
      response.end(body);
      end(exchange, status);
    },
    end,
  };
}
