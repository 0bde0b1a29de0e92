import { EventEmitter } from "node:events";
import { run } from "graphile-worker";
import { collectDefaultMetrics, Registry } from "prom-client";
import { createPublicClient } from "viem";
import { base } from "viem/chains";
import { createFeedReader } from "../chain/priceFeeds.ts";
import { rpcTransport } from "../chain/rpc.ts";
import { clockFor } from "../db/clock.ts";
import { createDb } from "../db/database.ts";
import { startHeartbeat } from "../db/heartbeat.ts";
import { advanceReconcileWatermark } from "../db/queries/reconcileCatchUp.ts";
import { DeliverySlots } from "../domain/deliverySlots.ts";
import { TASK } from "../domain/jobs.ts";
import { parseKeyring } from "../domain/secretBox.ts";
import { createMailer } from "../email/mailer.ts";
import { parseEnv } from "../internal/env.ts";
import { graphileLogger } from "../internal/graphileLogger.ts";
import { localCaptureKey } from "../internal/localCaptureKey.ts";
import { createLogger } from "../internal/logger.ts";
import { type MetricsServer, startMetricsServer } from "../internal/metricsServer.ts";
import { DEPOSIT_ACCOUNT, extendedPublicKey } from "../keys/hdWallet.ts";
import { relayerAccount } from "../keys/relayer.ts";
import { createRenderPool } from "../pdf/renderPool.ts";
import { withJobContext } from "./jobContext.ts";
import { observeJobs } from "./jobMetrics.ts";
import { type QueueName, splitTaskList } from "./queues.ts";
import { unlockCrashedJobs, watchIndexedTransfers } from "./startup.ts";
import { createTaskList } from "./tasks/index.ts";

const log = createLogger("worker");
const env = parseEnv();
if (!env.DATABASE_URL || !env.INDEXER_SCHEMA || !env.CHAIN_RPC_URL) {
  throw new Error(
    "worker/main.ts needs DATABASE_URL, INDEXER_SCHEMA and CHAIN_RPC_URL (set by `npm start`)",
  );
}

const db = createDb(env.DATABASE_URL);
const chain = createPublicClient({
  chain: base,
  transport: rpcTransport(env.CHAIN_RPC_URL),
  // The relayer counts blocks since a transaction was sent: no block number from a cache.
  cacheTime: 0,
});
const seed = env.DEPOSIT_MNEMONIC;
if (!seed) throw new Error("the worker needs DEPOSIT_MNEMONIC (set by `npm start`)");
if (!env.WEBHOOK_SECRET_KEY)
  throw new Error("the worker needs WEBHOOK_SECRET_KEY (set by `npm start`)");
// Created documents' PDFs are rendered here, from their stored records (the render_pdf job, in
// the email queue, and a vendor email that comes first: app/documentPdf.ts), on threads of this
// process that start on demand and exit when idle (pdf/renderPool.ts).
const pdf = createRenderPool({
  threads: Math.max(1, env.WORKER_EMAIL_CONCURRENCY),
  nice: env.WORKER_RENDER_NICE,
  onThreadExit: (fields) => log.warn("pdf render thread died", fields),
});
const webhookKeys = parseKeyring(env.WEBHOOK_SECRET_KEY, env.WEBHOOK_SECRET_KEY_PREVIOUS);
const clock = clockFor(env.TEST_CLOCK, db);
const relayer = relayerAccount({ privateKey: env.RELAYER_PRIVATE_KEY, localChain: env.localChain });
const taskList = createTaskList({
  db,
  pdf,
  // Without SendGrid, the local capture's key, which only this stack's processes can derive.
  mailer: createMailer({
    apiKey: env.SENDGRID_API_KEY ?? localCaptureKey(env.WEBHOOK_SECRET_KEY),
    baseUrl: env.SENDGRID_API_URL,
  }),
  emailFrom: env.EMAIL_FROM,
  baseUrl: env.BASE_URL,
  payUrl: env.PAY_URL,
  indexerSchema: env.INDEXER_SCHEMA,
  chain,
  // Its calls retried as the chain client's are (rpcTransport).
  feeds: createFeedReader(env.CHAIN_RPC_URL),
  autoSweep: env.SWEEP === "on",
  sweepPolicy: { minAmount: env.SWEEP_MIN_AMOUNT, partialAfterMs: env.SWEEP_PARTIAL_AFTER },
  dustThreshold: env.EXCESS_DUST_THRESHOLD,
  sweep: relayer
    ? {
        mnemonic: seed,
        relayer: {
          db,
          account: relayer,
          chain,
          chainId: base.id,
          replaceAfterBlocks: env.RELAYER_REPLACE_AFTER_BLOCKS,
          log: log.child("relayer"),
        },
        chain,
      }
    : undefined,
  confirmations: env.CONFIRMATIONS,
  managedWalletSeed: seed,
  explorerUrl: env.EXPLORER_URL,
  webhooks: {
    allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    keys: webhookKeys,
    slots: new DeliverySlots({
      perMerchant: env.WEBHOOK_SLOTS_PER_MERCHANT,
      perEndpoint: env.WEBHOOK_SLOTS_PER_ENDPOINT,
    }),
    disableEndpointAfter: env.WEBHOOK_ENDPOINT_DISABLE_AFTER,
  },
  schedules: {
    clock,
    app: {
      db,
      rpcUrl: env.CHAIN_RPC_URL,
      indexerSchema: env.INDEXER_SCHEMA,
      baseUrl: env.BASE_URL,
      payUrl: env.PAY_URL,
      depositXpub: extendedPublicKey(seed, DEPOSIT_ACCOUNT),
      outboxDir: env.outboxDir,
      allowPrivateWebhooks: env.ALLOW_PRIVATE_WEBHOOKS,
      explorerUrl: env.EXPLORER_URL,
      relayerAddress: relayer?.address,
      webhookKeys,
      log: log.child("schedules"),
      pdf,
      clock,
      emailBudget: { perHour: env.EMAILS_TO_OTHERS_PER_HOUR, perDay: env.EMAILS_TO_OTHERS_PER_DAY },
    },
  },
});

// graphile-worker's pools and workers get random ids; they are published in our heartbeat so
// that a restarted worker can tell its crashed predecessor's locks from a live sibling's.
// graphile-worker 0.18 locks jobs with the pool's id (locked_by = "pool-…"), not a worker's:
// without it, every lock of a live worker looked dead once older than the grace period.
const workerIds = new Set<string>();
const events = new EventEmitter();
const publish = (id: string) => {
  workerIds.add(id);
  void stopHeartbeat.beatNow();
};
events.on("pool:create", ({ workerPool }: { workerPool: { id: string } }) =>
  publish(workerPool.id),
);
events.on("worker:create", ({ worker }: { worker: { workerId: string } }) =>
  publish(worker.workerId),
);
const stopHeartbeat = startHeartbeat("worker", env.DATABASE_URL, () => [...workerIds]);

// Job outcomes and latencies live in this process: it serves them on its own loopback port.
const metrics = new Registry();
collectDefaultMetrics({ register: metrics });
observeJobs(events, metrics);
let metricsServer: MetricsServer | undefined;
if (env.WORKER_METRICS_PORT) {
  // Metrics are worth less than payments: a taken port is logged, and jobs run anyway.
  metricsServer = await startMetricsServer({
    host: env.HOST,
    port: env.WORKER_METRICS_PORT,
    registry: metrics,
    opsToken: env.OPS_TOKEN,
  }).catch((error) => {
    log.error("could not serve metrics", { port: env.WORKER_METRICS_PORT, error });
    return undefined;
  });
}

const releaseCrashedJobs = () =>
  unlockCrashedJobs(db)
    .then((workers) => {
      if (workers) log.warn("released jobs held by crashed workers", { workers });
    })
    .catch((error) => log.warn("could not check for crashed workers", { error }));
await releaseCrashedJobs();
// Again every 15 s: a sibling worker that dies (here or on another host) is found while we run.
const crashCheck = setInterval(releaseCrashedJobs, 15_000);
crashCheck.unref();

// One graphile-worker runner per queue (worker/queues.ts), each with its own slots and
// tasks: a slow webhook receiver or a sweep waiting on the chain can never hold a slot that
// payment detection needs. All of them report to one event emitter (heartbeat, metrics).
const concurrency: Record<QueueName, number> = {
  payments: env.WORKER_PAYMENTS_CONCURRENCY,
  email: env.WORKER_EMAIL_CONCURRENCY,
  webhooks: env.WORKER_WEBHOOKS_CONCURRENCY,
  chain: env.WORKER_CHAIN_CONCURRENCY,
  schedules: env.WORKER_SCHEDULES_CONCURRENCY,
};
// The scheduler's and the reminders' ticks: every minute, in the schedules queue's runner.
// graphile-worker's cron runs each minute's job once however many workers run; the job keys
// collapse a tick still waiting into the next.
const crontab: Partial<Record<QueueName, string>> = {
  schedules: [
    `* * * * * ${TASK.issueDueSchedules} ?jobKey=${TASK.issueDueSchedules}`,
    `* * * * * ${TASK.sendDueReminders} ?jobKey=${TASK.sendDueReminders}`,
  ].join("\n"),
};
// Every line written during a job carries its job id and task.
const queues = splitTaskList(withJobContext(taskList));
const queueNames = Object.keys(queues) as QueueName[];
const runners = await Promise.all(
  queueNames.map((queue) =>
    run({
      connectionString: env.DATABASE_URL,
      // Its slots, its LISTEN connection and one spare: no queue waits for another's connection.
      maxPoolSize: concurrency[queue] + 2,
      concurrency: concurrency[queue],
      // We stop on signals ourselves, so the heartbeat is withdrawn after the last job finished.
      noHandleSignals: true,
      events,
      taskList: queues[queue],
      ...(crontab[queue] ? { crontab: crontab[queue] } : {}),
      logger: graphileLogger(log.child(`graphile/${queue}`)),
      // Retries and confirmation re-checks are scheduled jobs: find them within half a second.
      pollInterval: 500,
      // One poll per queue, not one per slot: the local queue fetches for all the runner's
      // slots at once (a new job's notification still fetches at once). Without it each of
      // the 22 slots polled every 500 ms on a connection of its own, which never sat idle long
      // enough to close: ~15 Postgres backends (~2.5 MB each) and 40 queries a second at rest.
      // Jobs it holds are locked by this runner's pool id, which the heartbeat lists, so a
      // crash releases them as it releases running ones (worker/startup.ts).
      preset: { worker: { localQueue: { size: concurrency[queue] } } },
    }),
  ),
);
const payments = runners[queueNames.indexOf("payments")];
if (!payments) throw new Error("the worker has no payments queue");
const watching = new AbortController();
void watchIndexedTransfers(db, env.INDEXER_SCHEMA, payments.addJob, watching.signal).catch(
  (error) => log.error("could not install the transfer trigger", { error }),
);
// The start-up catch-up looks only above this watermark: keep it at the indexer's head while
// the trigger sees every transfer, so the next start has nothing of this run's to look at again.
const indexerSchema = env.INDEXER_SCHEMA;
const watermark = setInterval(
  () =>
    void advanceReconcileWatermark(db, indexerSchema).catch((error) =>
      log.warn("could not advance the reconcile watermark", { error }),
    ),
  30_000,
);
watermark.unref();
log.info("running", {
  queues: queueNames.map((queue) => `${queue}×${concurrency[queue]}`).join(","),
  email: env.outboxDir ? `outbox ${env.outboxDir}` : "SendGrid",
  confirmations: env.CONFIRMATIONS,
  sweep: env.SWEEP,
  relayer: relayer?.address,
  metrics: metricsServer ? `http://${env.HOST}:${metricsServer.port}/metrics` : undefined,
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  watching.abort();
  clearInterval(crashCheck);
  clearInterval(watermark);
  // graphile-worker finishes the jobs in flight; one that outlives the supervisor's grace
  // period is killed and released by the next worker (jobs are idempotent).
  await Promise.all(runners.map((runner) => runner.stop()));
  await stopHeartbeat();
  await metricsServer?.close();
  await pdf.close();
  await db.destroy();
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
await Promise.all(runners.map((runner) => runner.promise));
