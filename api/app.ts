import { Hono } from "hono";
import type { Db } from "../db/database.ts";
import { checkHealth } from "./health.ts";

export type AppDeps = { db: Db; rpcUrl: string; indexerSchema: string };

/** The HTTP application: JSON API, hosted pages and health. Pure wiring; no I/O at import. */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.get("/health", async (c) => {
    const report = await checkHealth(deps);
    return c.json(report, report.status === "ok" ? 200 : 503);
  });
  app.notFound((c) => c.json({ error: { code: "not_found", message: "no such route" } }, 404));
  return app;
}
