import { EventEmitter } from "node:events";
import { run } from "graphile-worker";
import { createPublicClient, createWalletClient } from "viem";
import { base } from "viem/chains";
import { rpcTransport } from "../chain/rpc.ts";
import { createDb } from "../db/database.ts";
import { startHeartbeat } from "../db/heartbeat.ts";
import { createMailer } from "../email/mailer.ts";
import { relayerAccount } from "../keys/relayer.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
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
});
const seed = env.DEPOSIT_MNEMONIC;
if (!seed) throw new Error("the worker needs DEPOSIT_MNEMONIC (set by `npm start`)");
const relayer = relayerAccount(env);
const taskList = createTaskList({
  db,
  // Without a key the capture endpoint accepts any bearer token.
  mailer: createMailer({
    apiKey: env.SENDGRID_API_KEY ?? "SG.local-capture",
    baseUrl: env.SENDGRID_API_URL,
  }),
  emailFrom: env.EMAIL_FROM,
  baseUrl: env.BASE_URL,
  payUrl: env.PAY_URL,
  indexerSchema: env.INDEXER_SCHEMA,
  chain,
  autoSweep: env.SWEEP === "on",
  sweep: relayer
    ? {
        mnemonic: seed,
        relayer,
        wallet: createWalletClient({ chain: base, transport: rpcTransport(env.CHAIN_RPC_URL) }),
        chain,
      }
    : undefined,
  confirmations: env.CONFIRMATIONS,
  explorerUrl: env.EXPLORER_URL,
  webhooks: {
    allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
  },
});

// graphile-worker's workers get random ids; they are published in our heartbeat so that a
// restarted worker can tell its crashed predecessor's locks from a live sibling's.
const workerIds = new Set<string>();
const events = new EventEmitter();
events.on("worker:create", ({ worker }: { worker: { workerId: string } }) =>
  workerIds.add(worker.workerId),
);
const stopHeartbeat = startHeartbeat("worker", env.DATABASE_URL, () => [...workerIds]);

const unlocked = await unlockCrashedJobs(db);
if (unlocked) log.warn("released jobs held by crashed workers", { workers: unlocked });

const runner = await run({
  connectionString: env.DATABASE_URL,
  concurrency: 5,
  // We stop on signals ourselves, so the heartbeat is withdrawn after the last job finished.
  noHandleSignals: true,
  events,
  taskList,
  // Retries and confirmation re-checks are scheduled jobs: find them within half a second.
  pollInterval: 500,
});
const watching = new AbortController();
void watchIndexedTransfers(
  db,
  env.INDEXER_SCHEMA,
  (task, payload, options) => runner.addJob(task, payload as never, options),
  watching.signal,
).catch((error) => log.error("could not install the transfer trigger", { error }));
log.info("running", {
  tasks: Object.keys(taskList).join(","),
  email: env.outboxDir ? `outbox ${env.outboxDir}` : "SendGrid",
  confirmations: env.CONFIRMATIONS,
  sweep: env.SWEEP,
  relayer: relayer?.address,
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  watching.abort();
  // graphile-worker finishes the jobs in flight; one that outlives the supervisor's grace
  // period is killed and released by the next worker (jobs are idempotent).
  await runner.stop();
  await stopHeartbeat();
  await db.destroy();
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
await runner.promise;
