// Ponder requires this file. It serves the indexed transfers read-only to auditors:
// GraphQL at /graphql and Ponder's SQL-over-HTTP client at /sql/*. Both are operational: served
// to this machine itself, or with `Authorization: Bearer <OPS_TOKEN>` (docs/operations.md,
// "The indexer"); Ponder's own /metrics, /status, /health and /ready are answered before this
// app and are kept off the network by binding the server to INDEXER_HOST (loopback).
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { client, graphql } from "ponder";
import { operationalOnly } from "../../api/middleware/operationalOnly.ts";

const refuse = operationalOnly(process.env.OPS_TOKEN || undefined, (c) => {
  c.header("WWW-Authenticate", 'Bearer realm="remit operations"');
  return c.json(
    {
      error: {
        code: "unauthorized",
        message:
          "operational endpoint: served to this machine, or with Authorization: Bearer <OPS_TOKEN>",
      },
    },
    401,
  );
});

const app = new Hono();
app.use("/sql/*", refuse);
app.use("/graphql", refuse);
app.use("/sql/*", client({ db, schema }));
app.use("/graphql", graphql({ db, schema }));
export default app;
