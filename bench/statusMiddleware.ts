// Micro-benchmark of the status endpoint's per-request cost, in process (app.fetch, no socket):
// each piece alone on a bare Hono route, then the whole app answering from its status cache,
// each against the bare route in alternating batches of the same run (bench/interleaved.ts:
// warm-up, paired rounds, medians), so load from elsewhere on a shared machine falls on both.
// What each piece costs decides what is worth keeping; bench/statusEndpoint.ts
// measures the same over HTTP, against a bare server, and is the figure that counts.
//
// Order matters: the first AsyncLocalStorage.run turns on promise hooks for the whole process,
// which then tax every later measurement, baselines included. The pieces that use it come last.
import { Hono, type MiddlewareHandler } from "hono";
import { Registry } from "prom-client";
import { registerAbuseGuards } from "../api/abuseGuards.ts";
import type { AppEnv } from "../api/appEnv.ts";
import { authenticate } from "../api/auth/authenticate.ts";
import { OPEN_AUTH } from "../api/auth/identity.ts";
import { keyRateLimit } from "../api/auth/keyRateLimit.ts";
import type { AppDeps } from "../api/deps.ts";
import { createHttpEdge } from "../api/edge/httpEdge.ts";
import { createHttpMetrics } from "../api/metrics/httpMetrics.ts";
import { rateLimit } from "../api/middleware/rateLimit.ts";
import { requestContext } from "../api/middleware/requestContext.ts";
import { createRouter } from "../api/openapi.ts";
import { registerPaymentStatus } from "../api/payments/status.ts";
import type { StatusCache } from "../api/payments/statusCache.ts";
import { requestIdFrom } from "../api/requestId.ts";
import { withLogContext } from "../internal/logContext.ts";
import { createLogger } from "../internal/logger.ts";
import { createApp } from "../server/app.ts";
import { compareInterleaved, type Fetch } from "./interleaved.ts";
import { record } from "./summary.ts";

const rounds = Number(process.env.BENCH_MIDDLEWARE_ROUNDS ?? 15);
const batchSize = Number(process.env.BENCH_MIDDLEWARE_BATCH ?? 2_000);
const log = createLogger("bench");
const answer = { status: "pending" };
const PROXIES = { hops: 1, isTrusted: () => true };

/** 1,024 polls from as many client addresses (behind one trusted proxy), reused in turn. */
const requests = Array.from(
  { length: 1_024 },
  (_, i) =>
    new Request(`http://127.0.0.1/api/payments/status/slug${i % 500}`, {
      headers: { "x-forwarded-for": `10.0.${(i >> 8) & 255}.${i & 255}` },
    }),
);

const bareWith = (...middleware: MiddlewareHandler<AppEnv>[]): Fetch => {
  const app = new Hono<AppEnv>();
  for (const m of middleware) app.use("/api/*", m);
  app.get("/api/payments/status/:slug", (c) => c.json(answer));
  return app.fetch;
};

/** A status cache that always has the answer (what a poll of an unchanged payment meets). */
const warmCache = {
  get: () => answer,
  generation: () => 0,
  set: () => {},
} as unknown as StatusCache;

const deps = {
  baseUrl: "http://127.0.0.1",
  payUrl: "http://127.0.0.1",
  outboxDir: null,
  allowPrivateWebhooks: false,
  statusCache: warmCache,
  db: undefined as never,
  rateLimits: { status: 1_000_000, invoices: 60, links: 120, trustedProxies: PROXIES },
  accountLimits: { perKey: 600, redeliveries: 10, claims: 5 },
  auth: OPEN_AUTH,
  log,
} as unknown as AppDeps;

/** The status route alone, as registered by the app (its validation, cache and body). */
const statusRouteOnly = (): Fetch => {
  const app = createRouter();
  registerPaymentStatus(app, deps);
  return app.fetch;
};

const PIECES: [string, () => Fetch][] = [
  ["request id (header, fresh id)", () => bareWith(idOnly)],
  [
    "413 guard (content-length)",
    () => {
      const app = createRouter();
      registerAbuseGuards(app, { rateLimits: undefined }, undefined);
      app.get("/api/payments/status/:slug", (c) => c.json(answer));
      return app.fetch;
    },
  ],
  ["rate limit (per client IP)", () => bareWith(rateLimit(1_000_000, PROXIES, "status"))],
  [
    "authenticate (no key)",
    () => bareWith(authenticate({ db: undefined as never, auth: OPEN_AUTH })),
  ],
  ["per-key rate limit (no key)", () => bareWith(keyRateLimit(600, "API"))],
  ["status route: params, cache, JSON body", statusRouteOnly],
  // From here on AsyncLocalStorage's promise hooks are on in this process.
  [
    "log context (AsyncLocalStorage)",
    () => bareWith((_c, next) => withLogContext({ request_id: "x" }, next)),
  ],
  [
    "request context (id, log context, metrics, debug line)",
    () =>
      bareWith(requestContext(createHttpEdge({ log, metrics: createHttpMetrics(new Registry()) }))),
  ],
];

function idOnly(c: Parameters<MiddlewareHandler<AppEnv>>[0], next: () => Promise<void>) {
  const id = requestIdFrom(c.req.header("x-request-id"));
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  return next();
}

export async function benchStatusMiddleware(): Promise<void> {
  const options = { rounds, batchSize };
  const bare = bareWith();
  console.log(
    `\n# Status endpoint, per request in process (app.fetch; ${rounds} rounds of ${batchSize} requests alternating with the bare route; medians)`,
  );
  const line = (label: string, c: Awaited<ReturnType<typeof compareInterleaved>>) =>
    console.log(
      `${label.padEnd(56)} ${c.candidateUs.toFixed(1).padStart(6)} µs vs bare ${c.baselineUs.toFixed(1).padStart(6)} µs  +${c.extraUs.toFixed(2)} µs  (${(100 * c.ratio).toFixed(0)} %)`,
    );
  for (const [label, make] of PIECES)
    line(`+ ${label}`, await compareInterleaved(bare, make(), requests, options));
  const whole = await compareInterleaved(bare, createApp(deps).fetch, requests, options);
  line("whole app, status from its cache", whole);
  record({
    // Over HTTP a cached poll takes the fast path in front of the app (bench/statusEndpoint.ts);
    // this is the Hono path: misses, keyed polls, and GET /api/invoices/{id}/status.
    measure: "status endpoint in process, Hono path (app.fetch)",
    result: `${whole.candidateUs.toFixed(1)} µs/request (+${whole.extraUs.toFixed(1)} µs)`,
    baseline: `bare Hono route ${whole.baselineUs.toFixed(1)} µs`,
    ratio: `${(100 * whole.ratio).toFixed(0)} %`,
    goal: "≥ 70 % of the bare route's rate",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStatusMiddleware();
