import { setTimeout as delay } from "node:timers/promises";
import { Hono } from "hono";
import { Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { createLogger, createRootLogger } from "../../internal/logger.ts";
import { parseMetrics, sampleValue } from "../../test/helpers/prometheus.ts";
import { createHttpEdge } from "../edge/httpEdge.ts";
import { createHttpMetrics } from "../metrics/httpMetrics.ts";
import { registerMetricsRoute } from "../metrics/metricsRoute.ts";
import { requestContext } from "./requestContext.ts";

/** A small app wired like server/app.ts, logging into an array. */
function buildApp() {
  const raw: string[] = [];
  const root = createRootLogger("debug", { write: (line: string) => void raw.push(line) });
  const log = createLogger("api", root);
  const deeper = createLogger("api/deeper", root);
  const registry = new Registry();
  const app = new Hono();
  app.use(requestContext(createHttpEdge({ log, metrics: createHttpMetrics(registry) })));
  registerMetricsRoute(app, registry);
  app.get("/things/:id", async (c) => {
    deeper.info("looking", { id: c.req.param("id") });
    await delay(Number(c.req.query("wait") ?? 0));
    deeper.info("found");
    return c.json({ id: c.req.param("id") });
  });
  app.get("/boom", () => {
    throw new Error("kaput");
  });
  app.onError((error, c) => {
    log.error("unhandled error", { error });
    return c.json({ error: "internal_error" }, 500);
  });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { app, lines };
}

describe("requestContext", () => {
  test("every line of a request carries its id, also under concurrency and from onError", async () => {
    const { app, lines } = buildApp();
    const [slow, fast, failed] = await Promise.all([
      app.request("/things/a?wait=30", { headers: { "X-Request-Id": "req-slow" } }),
      app.request("/things/b", { headers: { "X-Request-Id": "req-fast" } }),
      app.request("/boom", { headers: { "X-Request-Id": "req-boom" } }),
    ]);
    expect([slow.status, fast.status, failed.status]).toEqual([200, 200, 500]);
    expect(slow.headers.get("x-request-id")).toBe("req-slow");

    const of = (id: string) => lines().filter((line) => line.request_id === id);
    expect(of("req-slow").map((line) => [line.msg, line.id ?? line.status])).toEqual([
      ["looking", "a"],
      ["found", undefined],
      ["request", 200],
    ]);
    expect(of("req-fast").map((line) => line.msg)).toEqual(["looking", "found", "request"]);
    expect(of("req-boom").map((line) => [line.msg, line.error ?? line.status])).toEqual([
      ["unhandled error", "kaput"],
      ["request", 500],
    ]);
    // Nothing was written outside a request.
    expect(lines().every((line) => typeof line.request_id === "string")).toBe(true);
    expect(of("req-slow").at(-1)).toMatchObject({
      component: "api",
      level: "debug",
      method: "GET",
      route: "/things/:id",
      path: "/things/a",
      duration_ms: expect.any(Number),
    });
  });

  test("an odd incoming id is replaced, and the replacement is what the lines carry", async () => {
    const { app, lines } = buildApp();
    const response = await app.request("/things/x", { headers: { "X-Request-Id": "no spaces!" } });
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines().map((line) => line.request_id)).toEqual([id, id, id]);
  });

  test("/metrics counts requests by method, route pattern and status, never by raw path", async () => {
    const { app } = buildApp();
    await app.request("/things/first");
    await app.request("/things/second");
    await app.request("/boom");
    await app.request("/no/such/path");
    const response = await app.request("/metrics");
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const samples = parseMetrics(text);
    const count = (labels: Record<string, string>) =>
      sampleValue(samples, "remit_http_request_duration_seconds_count", labels);
    expect(count({ method: "GET", route: "/things/:id", status: "200" })).toBe(2);
    expect(count({ method: "GET", route: "/boom", status: "500" })).toBe(1);
    expect(count({ method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(text).not.toMatch(/things\/first|things\/second|no\/such/);
    // A bucket counts every request at most as slow as its bound.
    expect(
      sampleValue(samples, "remit_http_request_duration_seconds_bucket", {
        route: "/things/:id",
        le: "+Inf",
      }),
    ).toBe(2);
  });
});
