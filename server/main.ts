import { serve } from "@hono/node-server";
import { collectDefaultMetrics } from "prom-client";
import { StatusCache } from "../api/payments/statusCache.ts";
import { createServerWithFastPath } from "../api/payments/statusFastPath.ts";
import { clockFor } from "../db/clock.ts";
import { createDb } from "../db/database.ts";
import { trustedProxyList } from "../domain/clientAddress.ts";
import { parseKeyring } from "../domain/secretBox.ts";
import { parseEnv } from "../internal/env.ts";
import { localCaptureKey } from "../internal/localCaptureKey.ts";
import { createLogger } from "../internal/logger.ts";
import { createRenderPool } from "../pdf/renderPool.ts";
import { createApi } from "./app.ts";

const log = createLogger("api");
const env = parseEnv();
const { DATABASE_URL, CHAIN_RPC_URL, INDEXER_SCHEMA, DEPOSIT_XPUB } = env;
const { WEBHOOK_SECRET_KEY } = env;
if (!DATABASE_URL || !CHAIN_RPC_URL || !INDEXER_SCHEMA || !DEPOSIT_XPUB || !WEBHOOK_SECRET_KEY) {
  throw new Error(
    "server/main.ts is started by `npm start`, which sets DATABASE_URL, CHAIN_RPC_URL, INDEXER_SCHEMA, DEPOSIT_XPUB and WEBHOOK_SECRET_KEY",
  );
}
const db = createDb(DATABASE_URL, {
  max: env.DATABASE_POOL_MAX,
  connectionTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
  statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
});
// Memory, CPU, event-loop lag and GC of this process, served with the app's series on /metrics.
collectDefaultMetrics();
// PDFs render on worker threads, started under load (up to PDF_RENDER_THREADS) and stopped
// when it ends: at rest none holds pdfmake's ~50 MB unless PDF_RENDER_WARM_THREADS says so.
const pdf = createRenderPool({
  threads: env.PDF_RENDER_THREADS,
  warmThreads: env.PDF_RENDER_WARM_THREADS,
  nice: env.PDF_RENDER_NICE,
  onThreadExit: (fields) => log.warn("pdf render thread died", fields),
});
const statusCache = new StatusCache(DATABASE_URL);
await statusCache.start();
const { app, statusFastPath, opsApp } = createApi({
  db,
  rpcUrl: CHAIN_RPC_URL,
  indexerSchema: INDEXER_SCHEMA,
  baseUrl: env.BASE_URL,
  payUrl: env.PAY_URL,
  depositXpub: DEPOSIT_XPUB,
  outboxDir: env.outboxDir,
  outboxKey: localCaptureKey(WEBHOOK_SECRET_KEY),
  emailBudget: { perHour: env.EMAILS_TO_OTHERS_PER_HOUR, perDay: env.EMAILS_TO_OTHERS_PER_DAY },
  allowPrivateWebhooks: env.ALLOW_PRIVATE_WEBHOOKS,
  explorerUrl: env.EXPLORER_URL,
  relayerAddress: env.RELAYER_ADDRESS,
  opsToken: env.OPS_TOKEN,
  opsTrustLocal: env.opsTrustLocal,
  statusCache,
  rateLimits: {
    status: env.RATE_LIMIT_STATUS_PER_MIN,
    invoices: env.RATE_LIMIT_INVOICES_PER_MIN,
    links: env.RATE_LIMIT_LINKS_PER_MIN,
    authorizations: env.RATE_LIMIT_GASLESS_PER_MIN,
    refundClaims: env.RATE_LIMIT_REFUNDS_PER_MIN,
    x402: env.RATE_LIMIT_X402_PER_MIN,
    trustedProxies: { hops: env.TRUST_PROXY, isTrusted: trustedProxyList(env.TRUSTED_PROXIES) },
  },
  auth: { mode: env.AUTH_MODE, signup: env.MERCHANT_SIGNUP },
  // Secure outside local mode (and whenever PAY_URL is https): docs/dashboard.md.
  dashboard: { secureCookies: !env.localChain || env.PAY_URL.startsWith("https:") },
  accountLimits: {
    perKey: env.RATE_LIMIT_KEY_PER_MIN,
    redeliveries: env.RATE_LIMIT_REDELIVERIES_PER_MIN,
    claims: env.RATE_LIMIT_CLAIMS_PER_MIN,
  },
  gasless: {
    submitWaitMs: env.RELAYER_SUBMIT_WAIT_MS,
    perSlugPerMinute: env.GASLESS_PER_SLUG_PER_MIN,
  },
  x402: { settleWaitMs: env.X402_SETTLE_WAIT_MS },
  relayerBudget: {
    daily: env.RELAYER_DAILY_GAS_BUDGET,
    perMerchantDaily: env.RELAYER_MERCHANT_DAILY_GAS_BUDGET,
  },
  refundLimits: {
    minimum: env.REFUND_MINIMUM,
    perMerchantPerHour: env.REFUNDS_PER_MERCHANT_PER_HOUR,
  },
  transactionLookup: {
    confirmations: env.CONFIRMATIONS,
    perMinute: env.RATE_LIMIT_TX_LOOKUP_PER_MIN,
  },
  webhookKeys: parseKeyring(WEBHOOK_SECRET_KEY, env.WEBHOOK_SECRET_KEY_PREVIOUS),
  pdf,
  log,
  clock: clockFor(env.TEST_CLOCK, db),
});
// The operational listener: `/metrics` and the email capture for this machine, on loopback
// whatever HOST says, so a reverse proxy to PORT never reaches it (docs/operations.md, "Listeners").
// Started first: "listening" is the last start-up line, after which every line is a request's.
const opsPort = env.OPS_PORT;
let opsServer: ReturnType<typeof serve> | undefined;
const opsListening = new Promise<string | undefined>((resolve) => {
  if (!opsPort) return resolve(undefined);
  opsServer = serve({ fetch: opsApp.fetch, port: opsPort, hostname: "127.0.0.1" }, (info) =>
    resolve(`${info.address}:${info.port}`),
  );
  // Metrics are worth less than payments: a taken port is logged, and the API serves on.
  opsServer.on("error", (error) => {
    log.error("could not serve the operational listener", { port: opsPort, error });
    resolve(undefined);
  });
});
const server = serve(
  {
    fetch: app.fetch,
    // Cached status polls are answered in front of the Hono app (api/payments/statusFastPath.ts).
    createServer: createServerWithFastPath(statusFastPath),
    port: env.PORT,
    hostname: env.HOST,
    // Slow clients (slowloris): Node answers 408 and closes a connection whose headers, or
    // whole request, take longer than this. It checks every connectionsCheckingInterval, 30 s
    // by default: far coarser than the bounds, hence a quarter of the shorter one.
    serverOptions: {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(50, Math.floor(env.HTTP_HEADERS_TIMEOUT_MS / 4)),
    },
  },
  (info) =>
    void opsListening.then((operational) =>
      log.info("listening", {
        address: `${info.address}:${info.port}`,
        ...(operational ? { operational } : {}),
      }),
    ),
);

const stop = () => {
  opsServer?.close();
  server.close(
    () =>
      void Promise.all([db.destroy(), statusCache.stop(), pdf.close()]).then(() => process.exit(0)),
  );
  // Keep-alive connections would hold close() open; the supervisor's grace period is the cap.
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
