import type { Hono } from "hono";
import { register as processRegistry, Registry } from "prom-client";

/**
 * `GET /metrics` in Prometheus' text format: the app's series and the process-wide ones (Node's
 * default metrics, registered by server/main.ts). Operational, not part of the public API: keep it
 * behind your gateway like the rest of an internal surface.
 */
// biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and schema.
export function registerMetricsRoute(app: Hono<any, any, any>, registry: Registry): void {
  app.get("/metrics", async (c) => {
    const merged = Registry.merge([registry, processRegistry]);
    return c.body(await merged.metrics(), 200, { "Content-Type": merged.contentType });
  });
}
