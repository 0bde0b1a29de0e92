// Ponder requires this file. It serves the indexed transfers read-only to auditors:
// GraphQL at /graphql and Ponder's SQL-over-HTTP client at /sql/*.
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { client, graphql } from "ponder";

const app = new Hono();
app.use("/sql/*", client({ db, schema }));
app.use("/graphql", graphql({ db, schema }));
export default app;
