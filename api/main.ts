import { serve } from "@hono/node-server";
import { collectDefaultMetrics } from "prom-client";
import { createDb } from "../db/database.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
import { createApp } from "./app.ts";
import { StatusCache } from "./payments/statusCache.ts";

const log = createLogger("api");
const env = parseEnv();
const { DATABASE_URL, CHAIN_RPC_URL, INDEXER_SCHEMA, DEPOSIT_XPUB, MANAGED_WALLET_XPUB } = env;
if (!DATABASE_URL || !CHAIN_RPC_URL || !INDEXER_SCHEMA || !DEPOSIT_XPUB || !MANAGED_WALLET_XPUB) {
  throw new Error(
    "api/main.ts is started by `npm start`, which sets DATABASE_URL, CHAIN_RPC_URL, INDEXER_SCHEMA, DEPOSIT_XPUB and MANAGED_WALLET_XPUB",
  );
}
const db = createDb(DATABASE_URL, {
  max: env.DATABASE_POOL_MAX,
  connectionTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
  statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
});
// Memory, CPU, event-loop lag and GC of this process, served with the app's series on /metrics.
collectDefaultMetrics();
const statusCache = new StatusCache(DATABASE_URL);
await statusCache.start();
const app = createApp({
  db,
  rpcUrl: CHAIN_RPC_URL,
  indexerSchema: INDEXER_SCHEMA,
  baseUrl: env.BASE_URL,
  payUrl: env.PAY_URL,
  depositXpub: DEPOSIT_XPUB,
  managedWalletXpub: MANAGED_WALLET_XPUB,
  outboxDir: env.outboxDir,
  allowPrivateWebhooks: env.ALLOW_PRIVATE_WEBHOOKS,
  explorerUrl: env.EXPLORER_URL,
  relayerAddress: env.RELAYER_ADDRESS,
  statusCache,
  log,
});
const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) =>
  log.info("listening", { address: `${info.address}:${info.port}` }),
);

const stop = () => {
  server.close(
    () => void Promise.all([db.destroy(), statusCache.stop()]).then(() => process.exit(0)),
  );
  // Keep-alive connections would hold close() open; the supervisor's grace period is the cap.
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
