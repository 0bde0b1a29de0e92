import { readFileSync } from "node:fs";
import { rpcRequest } from "../chain/rpc.ts";
import { clearHeartbeats } from "../db/heartbeat.ts";
import { loadMigrationTools, migrate } from "../db/migrate.ts";
import { databaseRoleProblem, grantRuntimeRole } from "../db/runtimeRole.ts";
import { requireProductionEmail } from "../email/productionEmail.ts";
import { type Env, parseEnv, splitRpcUrls } from "../internal/env.ts";
import { createLogger } from "../internal/logger.ts";
import { processStartedAtMs, waitFor } from "../internal/process.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { requireProductionKeys } from "../keys/productionKeys.ts";
import { resolveMnemonic } from "../keys/seed.ts";
import { resolveWebhookSecretKey } from "../keys/webhookSecretKey.ts";
import { apiSpec, indexerSpec, indexerWsUrl, ponderVersion, workerSpec } from "./children.ts";
import { ensureIndexOfChain } from "./indexCheck.ts";
import { indexerSchemaName } from "./indexerSchema.ts";
import { fillManagedWalletPool } from "./managedWallets.ts";
import { releasePonderLock } from "./ponderLock.ts";
import { resealStoredWebhookSecrets } from "./resealWebhookSecrets.ts";
import { refuseTransactionPooler } from "./sessionPoolerCheck.ts";
import {
  describeRpcUrls,
  type StartResources,
  startChain,
  startDatabase,
  stopLeftovers,
} from "./startChainAndDatabase.ts";
import {
  opsPort,
  refuseDataDirInUse,
  refuseTakenPorts,
  StartRefusedError,
  workerMetricsPort,
} from "./startChecks.ts";
import { StartPhases } from "./startPhases.ts";
import { SupervisedChild } from "./supervisor.ts";

const log = createLogger("remit");
const phases = new StartPhases();
/** Set by platform/launch.mjs (`npm start`) when this runs from bundles. */
const launch = (globalThis as { remitBuild?: { readyAt: number; built: boolean } }).remitBuild;
// Bundles made at this start (a fresh clone, or changed sources) or found in the cache.
if (launch) phases.markAt(launch.built ? "bundled" : "bundles_found", launch.readyAt);
/** The indexer starts after the API and the worker, or this long after them at the latest. */
const INDEXER_START_AFTER_MS = 20_000;
/** How long /health must answer 200 without a break before `healthy` is printed. */
const STAY_HEALTHY_MS = 1_200;

/**
 * Ponder's lines when it runs without making progress: a reorg below its finalized block,
 * which it retries at every new block for ten minutes, and the chain's head it failed to fetch
 * ten times in a row (once is an RPC's hiccup, retried by Ponder itself). The
 * supervisor restarts it then (after the check of its index against the chain).
 */
const PONDER_STUCK =
  /Encountered unrecoverable '[^']*' reorg|Failed to fetch latest block.*retry_count\W{1,3}\d{2,}/;

/** Ponder's messages when another instance holds the schema's lock (it waits, then exits). */
const PONDER_LOCKED_OUT =
  /Schema is locked by a different Ponder app|Failed to acquire lock on schema/;

/** Stops what was started, newest first. */
const cleanups: Array<() => Promise<void>> = [];
let stopping: Promise<void> | undefined;

/**
 * Stops everything, once: a second request (a signal after a signal, or the parent's exit
 * noticed during a stop) waits for the stop under way instead of cutting it short, which
 * would leave the database and the chain running.
 */
async function shutdown(reason: string, exitCode: number): Promise<never> {
  stopping ??= (async () => {
    log.info("shutting down", { reason });
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error) => log.error("while stopping", { error }));
    }
    log.info("stopped");
  })();
  await stopping;
  process.exit(exitCode);
}

/**
 * Whoever started us (npm, a shell, a service manager) may die without passing a signal on:
 * `kill -HUP` of npm's pid kills npm and leaves us reparented. Nobody could stop us then, so
 * we stop ourselves, everything we started included.
 */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) void shutdown("parent exited", 0);
  }, 500);
  timer.unref();
}

/** What the start-up's pieces register their stops with and mark their phases on. */
const resources: StartResources = {
  onStop: (stop) => cleanups.push(stop),
  phases,
  shutdown: (reason) => void shutdown(reason, 1),
};

async function main(): Promise<void> {
  const env = parseEnv();
  // SIGHUP is a closed terminal or SSH session: stop as cleanly as on Ctrl-C or a stop request.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => void shutdown(signal, 0));
  }
  stopWhenOrphaned();
  // Children's lines are passed on through process.stdout: once a closed terminal or pipe has
  // nobody reading it, its errors are expected and must not stop the stop.
  process.stdout.on("error", () => {});
  requireProductionKeys(env);
  requireProductionEmail(env);
  // Before anything is started or written: a second Remit on this machine must not reach the
  // first one's database or chain through a port it could not bind itself.
  await refuseDataDirInUse(env.DATA_DIR);
  await stopLeftovers(env, log);
  await refuseTakenPorts(env);
  const startedAt = performance.now();
  phases.mark("modules_loaded");
  // Loaded while the database and the chain start; migrate() reports a failure to load.
  loadMigrationTools().catch(() => {});
  // Settled, not raced: when one fails, the other's cleanup is registered before shutdown.
  const [database, chain] = await Promise.allSettled([
    startDatabase(env, resources),
    startChain(env, resources),
  ]);
  if (database.status === "rejected") throw database.reason;
  if (chain.status === "rejected") throw chain.reason;
  const databaseUrl = database.value;
  const { rpcUrl } = chain.value;
  const startBlock = chain.value.startBlock;
  log.info("chain checked: Base with USDC", {
    mode: env.chainMode,
    rpc: describeRpcUrls(rpcUrl),
    start_block: startBlock,
  });
  // With two roles the owner migrates (and runs the indexer, and keeps the index); the API and
  // the worker run as DATABASE_URL's runtime role, granted what they need (db/runtimeRole.ts).
  const ownerUrl = env.MIGRATION_DATABASE_URL ?? databaseUrl;
  await refuseTransactionPooler(env);
  const applied = await migrate(ownerUrl);
  if (applied.length) log.info("migrations applied", { migrations: applied.join(",") });
  if (env.MIGRATION_DATABASE_URL) await grantRuntimeRole(ownerUrl, databaseUrl);
  if (env.chainMode === "mainnet" && env.DATABASE_URL && env.ALLOW_DATABASE_OWNER !== "true") {
    const problem = await databaseRoleProblem(databaseUrl);
    if (problem)
      throw new StartRefusedError(
        `${problem}. Give the API and worker a runtime role (MIGRATION_DATABASE_URL for the owner; \`remit db roles\` prints the SQL), or set ALLOW_DATABASE_OWNER=true (docs/operations.md)`,
      );
  }
  phases.mark("migrations");

  const genesis = await rpcRequest<{ hash: string }>(
    splitRpcUrls(rpcUrl)[0] ?? rpcUrl,
    "eth_getBlockByNumber",
    [`0x${(chain.value.identityBlock ?? 0).toString(16)}`, false],
  );
  const indexerSchema =
    env.INDEXER_SCHEMA ??
    (await indexerSchemaName({
      root: projectRoot,
      ponderVersion,
      // Real Base is identified by its genesis hash: changing or adding an RPC provider must
      // not reindex from START_BLOCK. A local anvil is identified by where it runs too.
      rpcUrl: env.chainMode === "mainnet" ? "base-mainnet" : rpcUrl,
      pollingInterval: env.PONDER_POLLING_INTERVAL,
      startBlock,
      genesisHash: genesis.hash,
      ...(chain.value.session ? { chainSession: chain.value.session } : {}),
    }));
  // A new schema means a full reindex: say which one, and of which chain, so a restart that
  // reindexes can be told from one that resumes.
  log.info("indexer schema", { schema: indexerSchema, chain_identity: genesis.hash });
  // The same schema names the same chain by its first blocks only: what it indexed above them
  // must still be on the chain (a local chain resumed from an older state file is not).
  const checkIndex = () =>
    ensureIndexOfChain({
      databaseUrl: ownerUrl,
      schema: indexerSchema,
      rpcUrl,
      rebuild: env.chainMode === "simulated",
      log,
    }).catch((error) => {
      // An RPC down at this moment must not stop the start: Ponder waits for it itself.
      log.warn("could not compare the index with the chain", { error });
      return false;
    });
  await checkIndex();

  // Nothing can be alive yet: heartbeats of an earlier run must not make this one look ready.
  await clearHeartbeats(databaseUrl);
  const settings = {
    baseEnv: { ...process.env, BASE_URL: env.BASE_URL, PAY_URL: env.PAY_URL },
    databaseUrl,
    rpcUrl,
    indexerSchema,
    mnemonic: await resolveMnemonic(secretSource(env, env.DEPOSIT_MNEMONIC), log),
    webhookSecretKey: await resolveWebhookSecretKey(secretSource(env, env.WEBHOOK_SECRET_KEY), log),
  };
  await resealStoredWebhookSecrets(databaseUrl, settings.webhookSecretKey, env, log);
  // The API cannot derive managed wallets (hardened): they wait for it, derived, in a pool,
  // filled while the children start (before `ready`; the worker keeps it full afterwards).
  const walletPool = fillManagedWalletPool(databaseUrl, settings.mnemonic).catch((error) =>
    log.error("could not derive managed wallets into the pool; the worker will", { error }),
  );
  const indexer = indexerSpec({
    ...settings,
    // Ponder creates its schema and tables at each new build: the owner's work.
    databaseUrl: ownerUrl,
    port: env.INDEXER_PORT,
    // Its GraphQL and SQL need OPS_TOKEN from elsewhere, but Ponder's own routes cannot be
    // guarded: the server stays on loopback unless INDEXER_HOST opens it.
    host: env.INDEXER_HOST,
    pollingInterval: env.PONDER_POLLING_INTERVAL,
    // Anvil's own WebSocket only while it mines on a timer: Ponder over WebSocket indexes up to
    // the head only once a new head arrives, which an idle chain mining a block per transaction
    // (ANVIL_BLOCK_TIME=0) never sends (test/health.test.ts waits on such a chain).
    wsUrl: indexerWsUrl(
      env.BASE_WS_URL,
      rpcUrl,
      env.chainMode !== "mainnet" && env.ANVIL_BLOCK_TIME > 0,
    ),
    startBlock,
    logLevel: env.LOG_LEVEL === "debug" ? "debug" : "warn",
    localRpc: env.chainMode !== "mainnet",
  });
  // A killed indexer leaves its schema locked until Ponder's heartbeat timeout: release it,
  // unless this indexer died because a different one (another machine) holds that lock;
  // releasing it then would make two writers.
  let lockedOut = false;
  indexer.onLine = (line) => {
    if (PONDER_LOCKED_OUT.test(line)) lockedOut = true;
  };
  indexer.stuckLine = PONDER_STUCK;
  indexer.beforeRestart = async (pid) => {
    // The dead one's beat must not count for the next, which beats once it indexes live.
    await clearHeartbeats(databaseUrl, pid);
    if (lockedOut) {
      log.warn("another indexer holds the schema's lock; leaving it to that one", {
        schema: indexerSchema,
      });
      lockedOut = false;
      return;
    }
    await releasePonderLock(ownerUrl, indexerSchema);
    // Its table is new after a rebuild: the worker installs its trigger on it when it starts.
    if (await checkIndex()) await supervised.get("worker")?.restart("the index was rebuilt");
  };
  const worker = workerSpec(settings);
  worker.env.WORKER_METRICS_PORT = String(workerMetricsPort(env));
  // The API serves it; the worker sends captured emails there when PORT will not take them.
  const api = apiSpec(settings);
  api.env.OPS_PORT = String(opsPort(env));
  worker.env.OPS_PORT = String(opsPort(env));
  // Its heartbeat lists its graphile workers: gone, their jobs are released at the next start.
  worker.beforeRestart = (pid) => clearHeartbeats(databaseUrl, pid);
  const supervised = new Map(
    [indexer, api, worker]
      .filter((spec) => env.PROCESSES.includes(spec.name as Env["PROCESSES"][number]))
      .map((spec) => [spec.name, new SupervisedChild(spec, log.child(spec.name))] as const),
  );
  const children = [...supervised.values()];
  // The indexer (Ponder: the longest start by far) starts once the API and the worker serve,
  // or after INDEXER_START_AFTER_MS: on two cores, three processes loading at once make the
  // first ready as late as the last. The chain's blocks wait for it; payments are detected
  // when it catches up (docs/architecture.md, "Start-up").
  const indexerChild = supervised.get("indexer");
  const indexerAfterReady = env.PROCESSES.includes("api") && indexerChild !== undefined;
  for (const child of children) if (child !== indexerChild || !indexerAfterReady) child.start();
  const indexerTimer = indexerAfterReady
    ? setTimeout(() => indexerChild.start(), INDEXER_START_AFTER_MS)
    : undefined;
  phases.mark("children_spawned");
  // Children stop before the database and the chain they use (cleanups run newest first).
  cleanups.push(() => Promise.all(children.map((child) => child.stop())).then(() => {}));

  await walletPool;
  if (!env.PROCESSES.includes("api")) {
    // No API here to ask: /health is answered by the hosts that run one.
    log.info(`running ${env.PROCESSES.join(",")}`, { chain: describeRpcUrls(rpcUrl) });
    return;
  }
  const healthUrl = `http://127.0.0.1:${env.PORT}/health`;
  const health = async () => {
    const response = await fetch(healthUrl);
    const report = (await response.json().catch(() => null)) as HealthBody | null;
    phases.markHealth(report);
    return { ok: response.ok, report };
  };
  // `ready`: the API and the worker serve (every component up but the indexer, which joins
  // when Ponder is up: a payment made before is detected when it catches up). A slow machine
  // is not a failed start: the stack keeps starting, and says every half minute what it still
  // waits for (a child that dies is restarted by its supervisor).
  let nextNote = performance.now() + 30_000;
  const stillStarting = (report: HealthBody | null) => {
    if (performance.now() < nextNote) return;
    nextNote = performance.now() + 30_000;
    log.info("still starting", { waiting_for: unhealthyComponents(report) });
  };
  let lastReport: HealthBody | null = null;
  await waitFor(
    "the API and the worker to report healthy",
    async () => {
      const { report } = await health();
      lastReport = report;
      const waiting = unhealthyComponents(report).filter((name) => name !== "indexer");
      if (report?.components && waiting.length === 0) return true;
      stillStarting(report);
      return false;
    },
    { timeoutMs: 900_000, intervalMs: 50 },
  );
  phases.mark("ready");
  clearTimeout(indexerTimer);
  // Nothing when the timer started it already (SupervisedChild.start runs one child at most).
  if (indexerAfterReady) indexerChild.start();
  const starting = unhealthyComponents(lastReport);
  log.info(`ready in ${secondsSinceLaunch(startedAt)}s`, {
    api: env.BASE_URL,
    pay: env.PAY_URL,
    health: `${env.BASE_URL}/health`,
    // The public port's /metrics takes the token once the service is published.
    metrics:
      env.opsTrustLocal || !opsPort(env)
        ? `${env.BASE_URL}/metrics`
        : `http://127.0.0.1:${opsPort(env)}/metrics`,
    worker_metrics: workerMetricsPort(env)
      ? `http://${env.HOST}:${workerMetricsPort(env)}/metrics`
      : undefined,
    indexer: `http://127.0.0.1:${env.INDEXER_PORT}/graphql`,
    chain: describeRpcUrls(rpcUrl),
    // What is still starting (the indexer): `healthy in` follows once /health answers 200.
    ...(starting.length ? { starting } : {}),
    // ms since this process started (add the launcher's own start-up for the total above).
    phases: phases.toJSON(),
  });
  // `healthy` promises that /health answers 200: one 200 is not that promise, since it can
  // rest on a chain head read up to a second earlier (api/health.ts caches it) while the chain
  // has moved on and the indexer is behind it. So: 200 without a break for longer than that.
  let healthySince: number | null = null;
  await waitFor(
    "every component to report healthy",
    async () => {
      const { ok, report } = await health();
      if (!ok) {
        healthySince = null;
        stillStarting(report);
        return false;
      }
      phases.mark("first_healthy");
      healthySince ??= performance.now();
      return performance.now() - healthySince >= STAY_HEALTHY_MS;
    },
    // However long it takes (the stack serves meanwhile); every half minute says what it waits for.
    { timeoutMs: Number.POSITIVE_INFINITY, intervalMs: 100 },
  );
  phases.mark("healthy");
  log.info(`healthy in ${secondsSinceLaunch(startedAt)}s`, { phases: phases.toJSON() });
}

type HealthBody = { components?: Record<string, { ok?: boolean }> };

/**
 * Seconds from the start of the command the user ran: npm's own start-up and tsx's included
 * (`startedAt`, performance.now() at this module's start, when neither can be read).
 */
function secondsSinceLaunch(startedAt: number): string {
  const launcher = /\bnpm\b/.test(parentCommand()) ? processStartedAtMs(process.ppid) : null;
  const began =
    launcher ?? processStartedAtMs(process.pid) ?? Date.now() - (performance.now() - startedAt);
  return ((Date.now() - began) / 1000).toFixed(2);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  log.error(`failed to start: ${message}`);
  void shutdown("start-up failed", 1);
});

/** The components a /health report says are not fine, by name. */
function unhealthyComponents(report: HealthBody | null): string[] {
  const components = report?.components;
  return Object.entries(components ?? {})
    .filter(([, state]) => state?.ok !== true)
    .map(([name]) => name);
}

/** A secret's setting and where a development one may be kept. */
function secretSource(env: Env, configured: string | undefined) {
  return { configured, localChain: env.localChain, dataDir: env.DATA_DIR };
}

/** The command line of whoever started us (npm, a shell, a service manager), or "". */
function parentCommand(): string {
  try {
    return readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}
