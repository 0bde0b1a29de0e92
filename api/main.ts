import { serve } from "@hono/node-server";
import { createDb } from "../db/database.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
import { createApp } from "./app.ts";

const log = createLogger("api");
const env = parseEnv();
if (!env.DATABASE_URL || !env.CHAIN_RPC_URL || !env.INDEXER_SCHEMA) {
  throw new Error(
    "api/main.ts is started by `npm start`, which sets DATABASE_URL, CHAIN_RPC_URL and INDEXER_SCHEMA",
  );
}
const db = createDb(env.DATABASE_URL);
const app = createApp({ db, rpcUrl: env.CHAIN_RPC_URL, indexerSchema: env.INDEXER_SCHEMA });
const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) =>
  log.info("listening", { address: `${info.address}:${info.port}` }),
);

const stop = () => {
  server.close(() => void db.destroy().then(() => process.exit(0)));
  // Keep-alive connections would hold close() open; the supervisor's grace period is the cap.
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
