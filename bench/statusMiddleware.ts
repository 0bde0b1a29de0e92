// Micro-benchmark of the status endpoint's per-request cost, in process (app.fetch, no socket):
// each piece of middleware alone on a bare Hono route, then the whole app answering from its
// status cache, against the bare route measured in the same run. What each piece costs decides
// what is worth keeping (issue 20 item 6); bench/statusEndpoint.ts measures the same over HTTP.
import { Hono, type MiddlewareHandler } from "hono";
import { Registry } from "prom-client";
import type { AppEnv } from "../api/appEnv.ts";
import { authenticate } from "../api/auth/authenticate.ts";
import { OPEN_AUTH } from "../api/auth/identity.ts";
import type { AppDeps } from "../api/deps.ts";
import { createHttpMetrics } from "../api/metrics/httpMetrics.ts";
import { rateLimit } from "../api/middleware/rateLimit.ts";
import { requestContext } from "../api/middleware/requestContext.ts";
import type { StatusCache } from "../api/payments/statusCache.ts";
import { createLogger } from "../internal/logger.ts";
import { createApp } from "../server/app.ts";
import { record } from "./summary.ts";

const iterations = Number(process.env.BENCH_MIDDLEWARE_ITERATIONS ?? 50_000);
const log = createLogger("bench");
const answer = { status: "pending" };
const path = "/api/payments/status/abcdefghijkl";

/** Microseconds per request, the median of five runs of `iterations` requests. */
async function perRequest(fetch: (request: Request) => Response | Promise<Response>) {
  const runs: number[] = [];
  for (let run = 0; run < 6; run++) {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) {
      const response = await fetch(
        new Request(`http://127.0.0.1${path}`, {
          headers: { "x-forwarded-for": `10.0.${(i >> 8) & 255}.${i & 255}` },
        }),
      );
      await response.arrayBuffer();
    }
    if (run > 0) runs.push(((performance.now() - started) * 1000) / iterations);
  }
  return runs.sort((a, b) => a - b)[2] as number;
}

const bareWith = (...middleware: MiddlewareHandler<AppEnv>[]) => {
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

export async function benchStatusMiddleware(): Promise<void> {
  const app = createApp({
    baseUrl: "http://127.0.0.1",
    payUrl: "http://127.0.0.1",
    outboxDir: null,
    allowPrivateWebhooks: false,
    statusCache: warmCache,
    rateLimits: {
      status: 1_000_000,
      invoices: 60,
      links: 120,
      trustedProxies: { hops: 1, isTrusted: () => true },
    },
    log,
  } as unknown as AppDeps);
  const pieces: [string, (request: Request) => Response | Promise<Response>][] = [
    ["bare Hono route", bareWith()],
    [
      "+ request context (id, log context, metrics)",
      bareWith(requestContext(log, createHttpMetrics(new Registry()))),
    ],
    [
      "+ rate limit (per client IP)",
      bareWith(rateLimit(1_000_000, { hops: 1, isTrusted: () => true }, "status")),
    ],
    [
      "+ authenticate (no key)",
      bareWith(authenticate({ db: undefined as never, auth: OPEN_AUTH })),
    ],
    ["whole app, status from its cache", (request) => app.fetch(request)],
  ];
  console.log(
    `\n# Status endpoint, per request in process (app.fetch, ${iterations} requests, median of 5)`,
  );
  const bare = await perRequest(pieces[0]?.[1] as never);
  console.log(`${"bare Hono route".padEnd(48)} ${bare.toFixed(1)} µs`);
  for (const [label, fetch] of pieces.slice(1)) {
    const us = await perRequest(fetch);
    console.log(`${label.padEnd(48)} ${us.toFixed(1)} µs  (+${(us - bare).toFixed(1)} µs)`);
    if (label.startsWith("whole app"))
      record({
        measure: "status endpoint in process (app.fetch)",
        result: `${us.toFixed(1)} µs/request`,
        baseline: `bare Hono route ${bare.toFixed(1)} µs`,
        ratio: `${((100 * bare) / us).toFixed(0)} %`,
        goal: "≥ 70 % of the bare route's rate",
      });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStatusMiddleware();
