import path from "node:path";
import { rpcRequest } from "../chain/anvil.ts";
import { startLocalChain } from "../chain/localChain.ts";
import { ensureDatabase } from "../db/embeddedPostgres.ts";
import { clearHeartbeats } from "../db/heartbeat.ts";
import { migrate } from "../db/migrate.ts";
import { resolveMnemonic } from "../keys/seed.ts";
import { resolveWebhookSecretKey } from "../keys/webhookSecretKey.ts";
import { apiSpec, indexerSpec, ponderVersion, projectRoot, workerSpec } from "./children.ts";
import { type Env, EnvError, parseEnv } from "./env.ts";
import { indexerSchemaName } from "./indexerSchema.ts";
import { createLogger } from "./logger.ts";
import { releasePonderLock } from "./ponderLock.ts";
import { superviseEmbeddedPostgres } from "./postgresSupervisor.ts";
import { waitFor } from "./process.ts";
import { resealStoredWebhookSecrets } from "./resealWebhookSecrets.ts";
import { SupervisedChild } from "./supervisor.ts";

const log = createLogger("remit");

/** Ponder's messages when another instance holds the schema's lock (it waits, then exits). */
const PONDER_LOCKED_OUT =
  /Schema is locked by a different Ponder app|Failed to acquire lock on schema/;
/** The worker's metrics port: WORKER_METRICS_PORT, else 9464 (0 turns the listener off). */
const DEFAULT_WORKER_METRICS_PORT = 9464;
const workerMetricsPort = (env: Env) => env.WORKER_METRICS_PORT ?? DEFAULT_WORKER_METRICS_PORT;

/** Stops what was started, newest first. */
const cleanups: Array<() => Promise<void>> = [];
let shuttingDown = false;

async function shutdown(reason: string, exitCode: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    log.info("shutting down", { reason });
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error) => log.error("while stopping", { error }));
    }
    log.info("stopped");
  }
  process.exit(exitCode);
}

async function startDatabase(env: Env): Promise<string> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const pgLog = createLogger("postgres");
  const postgres = await superviseEmbeddedPostgres(
    {
      dataDir: path.join(env.DATA_DIR, "postgres"),
      port: env.EMBEDDED_PG_PORT,
      onLog: (line) => pgLog.debug(line),
    },
    pgLog,
  );
  cleanups.push(postgres.stop);
  await ensureDatabase(postgres.url("postgres"), "remit");
  log.info("embedded postgres running", {
    pid: postgres.pid,
    data: path.join(env.DATA_DIR, "postgres"),
  });
  return postgres.url("remit");
}

async function startChain(env: Env): Promise<string> {
  if (env.BASE_RPC_URL) return env.BASE_RPC_URL;
  const chainLog = createLogger("anvil");
  const anvil = await startLocalChain({
    dataDir: env.DATA_DIR,
    port: env.ANVIL_PORT,
    blockTime: env.ANVIL_BLOCK_TIME,
    onLine: (line) => chainLog.debug(line),
    onNote: (line) => chainLog.info(line),
  });
  cleanups.push(anvil.stop);
  return anvil.url;
}

async function main(): Promise<void> {
  const env = parseEnv();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => void shutdown(signal, 0));
  }
  if (!env.localChain && env.SWEEP === "on" && !env.RELAYER_PRIVATE_KEY) {
    throw new EnvError(
      "RELAYER_PRIVATE_KEY is required with BASE_RPC_URL while SWEEP is on: it pays the sweeps' gas",
    );
  }
  const startedAt = performance.now();
  const [databaseUrl, rpcUrl] = await Promise.all([startDatabase(env), startChain(env)]);
  const chainId = Number(await rpcRequest<string>(rpcUrl, "eth_chainId", []));
  if (chainId !== 8453)
    throw new EnvError(`the chain at ${rpcUrl} has chain id ${chainId}, not Base (8453)`);
  const applied = await migrate(databaseUrl);
  if (applied.length) log.info("migrations applied", { migrations: applied.join(",") });

  const genesis = await rpcRequest<{ hash: string }>(rpcUrl, "eth_getBlockByNumber", [
    "0x0",
    false,
  ]);
  const indexerSchema =
    env.INDEXER_SCHEMA ??
    (await indexerSchemaName({
      root: projectRoot,
      ponderVersion,
      rpcUrl,
      pollingInterval: env.PONDER_POLLING_INTERVAL,
      startBlock: env.START_BLOCK ?? 0,
      genesisHash: genesis.hash,
    }));

  // Nothing can be alive yet: heartbeats of an earlier run must not make this one look ready.
  await clearHeartbeats(databaseUrl);
  const settings = {
    baseEnv: { ...process.env, BASE_URL: env.BASE_URL, PAY_URL: env.PAY_URL },
    databaseUrl,
    rpcUrl,
    indexerSchema,
    mnemonic: await resolveMnemonic(env, log),
    webhookSecretKey: await resolveWebhookSecretKey(env, log),
  };
  await resealStoredWebhookSecrets(databaseUrl, settings.webhookSecretKey, env, log);
  const indexer = indexerSpec({
    ...settings,
    port: env.INDEXER_PORT,
    host: env.HOST,
    pollingInterval: env.PONDER_POLLING_INTERVAL,
    startBlock: env.START_BLOCK ?? 0,
    logLevel: env.LOG_LEVEL === "debug" ? "debug" : "warn",
  });
  // A killed indexer leaves its schema locked until Ponder's heartbeat timeout: release it,
  // unless this indexer died because a different one (another machine) holds that lock;
  // releasing it then would make two writers.
  let lockedOut = false;
  indexer.onLine = (line) => {
    if (PONDER_LOCKED_OUT.test(line)) lockedOut = true;
  };
  indexer.beforeRestart = async () => {
    if (lockedOut) {
      log.warn("another indexer holds the schema's lock; leaving it to that one", {
        schema: indexerSchema,
      });
      lockedOut = false;
      return;
    }
    await releasePonderLock(databaseUrl, indexerSchema);
  };
  const worker = workerSpec(settings);
  worker.env.WORKER_METRICS_PORT = String(workerMetricsPort(env));
  // Its heartbeat lists its graphile workers: gone, their jobs are released at the next start.
  worker.beforeRestart = (pid) => clearHeartbeats(databaseUrl, pid);
  const children = [indexer, apiSpec(settings), worker].map(
    (spec) => new SupervisedChild(spec, log.child(spec.name)),
  );
  for (const child of children) child.start();
  // Children stop before the database and the chain they use (cleanups run newest first).
  cleanups.push(() => Promise.all(children.map((child) => child.stop())).then(() => {}));

  const healthUrl = `http://127.0.0.1:${env.PORT}/health`;
  await waitFor("every component to report healthy", async () => (await fetch(healthUrl)).ok, {
    timeoutMs: 120_000,
    intervalMs: 100,
  });
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(2);
  log.info(`ready in ${seconds}s`, {
    api: env.BASE_URL,
    pay: env.PAY_URL,
    health: `${env.BASE_URL}/health`,
    metrics: `${env.BASE_URL}/metrics`,
    worker_metrics: workerMetricsPort(env)
      ? `http://${env.HOST}:${workerMetricsPort(env)}/metrics`
      : undefined,
    indexer: `http://127.0.0.1:${env.INDEXER_PORT}/graphql`,
    chain: rpcUrl,
  });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  log.error(`failed to start: ${message}`);
  void shutdown("start-up failed", 1);
});
