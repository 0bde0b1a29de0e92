// The baseline of bench/statusEndpoint.ts: a bare Hono JSON route on @hono/node-server, the same
// process kind as the API, with no database behind it.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/bare/:slug", (c) => c.json({ status: "pending" }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
