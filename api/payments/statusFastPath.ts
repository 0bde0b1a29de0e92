import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import { API_POLICY, policyOf } from "../../domain/accessPolicy.ts";
import type { AppDeps } from "../deps.ts";
import type { HttpEdge } from "../edge/httpEdge.ts";

/** A node:http request handler that answers some requests itself: true when it did. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The answer's own headers (api/payments/status.ts's STATUS_HEADERS, as Hono sends them). */
const ANSWER_HEADERS = ["cache-control", "no-store", "content-type", "application/json"];

/** The route's pattern, as the Hono path labels its metrics and debug lines. */
const ROUTE = "/api/payments/status/:slug";
/**
 * The requests the fast path may answer: `GET /api/payments/status/{slug}` in origin form, a
 * slug of the characters slugs are made of, an optional query (ignored, as by Hono's router).
 * Anything else (percent-encoding, a trailing slash, dot segments) goes to the Hono app.
 */
const STATUS_URL = /^\/api\/payments\/status\/([A-Za-z0-9_-]{1,128})(?:\?|$)/;

/**
 * `GET /api/payments/status/{slug}` answered from the status cache at the node:http level, in
 * front of the Hono app (docs/architecture.md, "The status endpoint's per-request cost"). Over
 * HTTP, Hono's per-request machinery (a WHATWG Request, a Response, `Headers` for each header
 * set, one async step per middleware, AsyncLocalStorage's promise hooks) cost more than the
 * route itself; this answers a cached poll with one `writeHead` and one `end`.
 *
 * It answers only what it can decide entirely in memory, before any side effect: a GET of the
 * route with a `Host` @hono/node-server accepts, no `Authorization` header (a key, good or bad, is the Hono path's: database lookup,
 * 401, per-key budget), no body (`Content-Length`/`Transfer-Encoding`: the 413 guard's), and a
 * slug whose answer is in the cache (a miss reads the database on the Hono path, which fills
 * the cache). For those the app's HTTP edge (api/edge/httpEdge.ts) does what it does on the Hono
 * path, with the same bytes on the wire: request id and `X-Request-Id`, the status budget per
 * client IP (the same buckets, `RateLimit-*`, a 429 `rate_limited` with `Retry-After`), the HTTP
 * metrics and the debug line; this only adds the answer (`Content-Type: application/json`,
 * `Cache-Control: no-store`). `api/payments/statusFastPath.test.ts` compares both paths' answers.
 */
export function createStatusFastPath(options: {
  statusCache: NonNullable<AppDeps["statusCache"]>;
  auth: AppDeps["auth"];
  /** The app's HTTP edge: its request ids, status budget, metrics and access line. */
  edge: HttpEdge;
}): FastPath {
  const { statusCache, edge } = options;
  // In keys mode an anonymous request passes only on a public route (the status route is one).
  const publicRoute =
    policyOf(API_POLICY, "GET", "/api/payments/status/{slug}")?.access === "anyone";
  const anonymousAllowed = options.auth?.mode !== "keys" || publicRoute;
  const budget = edge.statusBudget;

  return (request, response) => {
    if (request.method !== "GET" || !anonymousAllowed) return false;
    const match = STATUS_URL.exec(request.url as string);
    if (!match) return false;
    const headers = request.headers;
    if (
      !acceptedHost(headers.host) ||
      headers.authorization !== undefined ||
      headers["content-length"] !== undefined ||
      headers["transfer-encoding"] !== undefined
    )
      return false;
    const body = statusCache.get(match[1] as string) as string | undefined;
    if (body === undefined) return false;
    // From here on this answers, as the Hono path would; over the budget, the edge's 429.
    edge.answer(response, edge.begin(request, ROUTE, budget), {
      status: 200,
      headers: ANSWER_HEADERS,
      body,
    });
    return true;
  };
}

/** Host headers judged by acceptedHost, with their verdicts (a request repeats its page's host). */
const hostVerdicts = new Map<string, boolean>();

/**
 * Whether @hono/node-server would take this `Host` (it answers 400 to one that does not parse
 * as a URL's host, or that the URL parser rewrites, such as `1.2.3`). Absent: the Hono path
 * decides (it falls back to the listening address). Verdicts are remembered, up to 1,024 hosts.
 */
function acceptedHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  let verdict = hostVerdicts.get(host);
  if (verdict === undefined) {
    try {
      // node-server's check (its newRequest), on the host alone: the path cannot change it.
      const { hostname } = new URL(`http://${host}/`);
      verdict = hostname.length === host.length || hostname === host.replace(/:\d+$/, "");
    } catch {
      verdict = false;
    }
    if (hostVerdicts.size >= 1024) hostVerdicts.clear();
    hostVerdicts.set(host, verdict);
  }
  return verdict;
}

/** A node:http request listener: the fast path first, `listener` (the Hono app) for the rest. */
export function withFastPath(
  fastPath: FastPath | undefined,
  listener: (request: IncomingMessage, response: ServerResponse) => void,
) {
  if (!fastPath) return listener;
  return (request: IncomingMessage, response: ServerResponse) => {
    if (!fastPath(request, response)) listener(request, response);
  };
}

/** `http.createServer` for `serve({ createServer })` of @hono/node-server, with `fastPath` in front. */
export function createServerWithFastPath(fastPath: FastPath | undefined): typeof createServer {
  return ((options: ServerOptions, listener: RequestListener) =>
    createServer(options, withFastPath(fastPath, listener))) as typeof createServer;
}
