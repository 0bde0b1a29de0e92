import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { withLogContext } from "../../internal/logContext.ts";
import type { Logger } from "../../internal/logger.ts";
import { redactPath } from "../../internal/redactPath.ts";
import type { AppEnv } from "../appEnv.ts";
import type { HttpMetrics } from "../metrics/httpMetrics.ts";
import { methodLabel, routePattern } from "../metrics/routePattern.ts";
import { requestHeader } from "../requestHeader.ts";
import { requestIdFrom } from "../requestId.ts";

/**
 * The first middleware: gives the request its id (answered in `X-Request-Id` and in error
 * bodies), runs everything after it in a log context carrying that id, so every line written
 * while handling the request has `request_id` wherever it is written from, and times it.
 * Per request it costs what the status endpoint can afford (docs/architecture.md, "The status
 * endpoint's per-request cost"): the debug line is only built when debug lines are written.
 */
export function requestContext(log: Logger, metrics: HttpMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = requestIdFrom(requestHeader(c, "x-request-id"));
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    const started = performance.now();
    await withLogContext({ request_id: id }, next);
    const ms = performance.now() - started;
    const method = methodLabel(c.req.method);
    const route = routePattern(matchedRoutes(c));
    const status = c.res.status;
    metrics.observe({ method, route, status }, ms / 1000);
    // Debug: the status endpoint alone serves thousands per second; /metrics has the counts.
    if (log.isEnabled?.("debug") ?? true)
      log.debug("request", {
        request_id: id,
        method,
        route,
        status,
        path: redactPath(c.req.path),
        duration_ms: Math.round(ms * 10) / 10,
      });
  };
}
