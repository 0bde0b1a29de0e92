import { Histogram, type Registry } from "prom-client";

/** Seconds; from a cached status answer (~1 ms) to an invoice with its PDF under load (~0.3 s). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type HttpMetrics = {
  observe: (labels: { method: string; route: string; status: number }, seconds: number) => void;
};

/** `remit_http_request_duration_seconds{method,route,status}`, registered on `registry`. */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const duration = new Histogram({
    name: "remit_http_request_duration_seconds",
    help: "Time from a request's arrival to its response, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  // Each series' child, found once: prom-client otherwise hashes the label object on every
  // observation. Bounded: methods, route patterns and statuses are few (see routePattern).
  const series = new Map<string, ReturnType<typeof duration.labels>>();
  return {
    observe: ({ method, route, status }, seconds) => {
      const key = `${method} ${status} ${route}`;
      let child = series.get(key);
      if (!child) {
        child = duration.labels({ method, route, status: String(status) });
        series.set(key, child);
      }
      child.observe(seconds);
    },
  };
}
