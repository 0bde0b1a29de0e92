import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { withLogContext } from "../../internal/logContext.ts";
import { requestHeader } from "../../internal/requestHeader.ts";
import type { AppEnv } from "../appEnv.ts";
import type { HttpEdge } from "../edge/httpEdge.ts";
import { methodLabel, routePattern } from "../metrics/routePattern.ts";

/**
 * The first middleware, the Hono adapter of the HTTP edge (api/edge/httpEdge.ts): gives the
 * request its id (answered in `X-Request-Id` and in error bodies), runs everything after it in a
 * log context carrying that id, so every line written while handling the request has
 * `request_id` wherever it is written from, and has the edge record its metrics and access line.
 * Per request it costs what the status endpoint can afford (docs/architecture.md, "The status
 * endpoint's per-request cost").
 */
export function requestContext(
  edge: Pick<HttpEdge, "requestId" | "end">,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = edge.requestId(requestHeader(c, "x-request-id"));
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    const started = performance.now();
    await withLogContext({ request_id: id }, next);
    edge.end(
      {
        requestId: id,
        started,
        method: methodLabel(c.req.method),
        route: routePattern(matchedRoutes(c)),
        path: c.req.path,
      },
      c.res.status,
    );
  };
}
