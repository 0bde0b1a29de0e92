import { Histogram, Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { createHttpMetrics } from "./httpMetrics.ts";

const OBSERVATIONS: [string, string, number, number][] = [
  ["GET", "/api/payments/status/:slug", 200, 0.0004],
  ["GET", "/api/payments/status/:slug", 200, 0.001],
  ["GET", "/api/payments/status/:slug", 429, 0.0002],
  ["POST", "/api/invoices", 201, 0.31],
  ["POST", "/api/invoices", 201, 12],
  ["GET", "unmatched", 404, 0.003],
];

/** prom-client's own Histogram, with the same name, buckets and observations. */
function promClientReference() {
  const registry = new Registry();
  const histogram = new Histogram({
    name: "remit_http_request_duration_seconds",
    help: "Time from a request's arrival to its response, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of OBSERVATIONS)
    histogram.observe({ method, route, status: String(status) }, seconds);
  return registry;
}

describe("createHttpMetrics", () => {
  test("scrapes exactly as prom-client's Histogram with the same observations", async () => {
    const registry = new Registry();
    const metrics = createHttpMetrics(registry);
    for (const [method, route, status, seconds] of OBSERVATIONS)
      metrics.observe(method, route, status, seconds);
    const reference = promClientReference();
    expect(await registry.metrics()).toBe(await reference.metrics());
    // As JSON too, but for prom-client's exemplars (null: this service records none).
    const withoutExemplars = (metrics: Awaited<ReturnType<Registry["getMetricsAsJSON"]>>) =>
      metrics.map((metric) => ({
        ...metric,
        values: metric.values.map((value) => {
          const { exemplar: _, ...rest } = value as typeof value & { exemplar?: unknown };
          return rest;
        }),
      }));
    expect(await registry.getMetricsAsJSON()).toEqual(
      withoutExemplars(await reference.getMetricsAsJSON()),
    );
  });

  test("a bound counts requests exactly as slow as it; reset empties every series", async () => {
    const registry = new Registry();
    const metrics = createHttpMetrics(registry);
    metrics.observe("GET", "/x", 200, 0.001);
    metrics.observe("GET", "/x", 200, 0.0011);
    const text = await registry.metrics();
    expect(text).toContain(
      'remit_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/x",status="200"} 1',
    );
    expect(text).toContain(
      'remit_http_request_duration_seconds_count{method="GET",route="/x",status="200"} 2',
    );
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain("_count{");
  });
});
