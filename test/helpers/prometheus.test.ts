import { describe, expect, test } from "vitest";
import { metricTypes, parseMetrics, sampleValue } from "./prometheus.ts";

const scrape = `# HELP remit_x_total Things.
# TYPE remit_x_total counter
remit_x_total{outcome="ok",route="/a/:id"} 3
remit_x_total{outcome="fail",route="/a/:id"} 0

# TYPE remit_lag gauge
remit_lag NaN
remit_h_bucket{le="+Inf",note="say \\"hi\\"\\n"} 2 1700000000000
remit_h_sum 0.25
`;

describe("parseMetrics", () => {
  test("reads names, labels (escapes included) and values, skipping comments", () => {
    expect(parseMetrics(scrape)).toEqual([
      { name: "remit_x_total", labels: { outcome: "ok", route: "/a/:id" }, value: 3 },
      { name: "remit_x_total", labels: { outcome: "fail", route: "/a/:id" }, value: 0 },
      { name: "remit_lag", labels: {}, value: Number.NaN },
      { name: "remit_h_bucket", labels: { le: "+Inf", note: 'say "hi"\n' }, value: 2 },
      { name: "remit_h_sum", labels: {}, value: 0.25 },
    ]);
    expect(metricTypes(scrape)).toEqual({ remit_x_total: "counter", remit_lag: "gauge" });
  });

  test("refuses a line that is not a sample", () => {
    expect(() => parseMetrics("remit_x_total{outcome=ok} 1")).toThrow(/not a Prometheus sample/);
  });
});

describe("sampleValue", () => {
  const samples = parseMetrics(scrape);
  test("finds the one matching sample, or none", () => {
    expect(sampleValue(samples, "remit_x_total", { outcome: "ok" })).toBe(3);
    expect(sampleValue(samples, "remit_x_total", { outcome: "other" })).toBeUndefined();
  });
  test("refuses ambiguous labels", () => {
    expect(() => sampleValue(samples, "remit_x_total")).toThrow(/2 samples/);
  });
});
