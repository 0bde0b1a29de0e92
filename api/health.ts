import { rpcRequestAny } from "../chain/rpc.ts";
import type { Db } from "../db/database.ts";
import { heartbeatAgeMs } from "../db/queries/heartbeats.ts";
import { indexedHead } from "../db/queries/indexer.ts";
import { findJobBacklog } from "../db/queries/jobs.ts";
import { pingDatabase } from "../db/queries/pingDatabase.ts";
import { relayerGasSpent } from "../db/queries/relayerGas.ts";
import { countFailingSweeps } from "../db/queries/sweeps.ts";
import { utcDayStart } from "../domain/relayedAuthorization.ts";
import { REFUND_GAS_RESERVE, type RelayerBudget } from "../domain/relayerBudget.ts";
import { feedsReport, sharedFeedsReading } from "./feedHealth.ts";

export type ComponentState = { ok: boolean; [detail: string]: unknown };

export type HealthReport = {
  /**
   * `starting`: every component is up but the indexer, which has not announced itself since it
   * (re)started (no heartbeat, or no block indexed yet). Payments made meanwhile are detected
   * once it catches up; /health stays 503 until then, as for `degraded`.
   */
  status: "ok" | "starting" | "degraded";
  components: {
    database: ComponentState;
    chain: ComponentState;
    indexer: ComponentState;
    worker: ComponentState;
    relayer?: ComponentState;
  };
  /**
   * The price feeds invoices priced in a currency are converted at (api/feedHealth.ts): their
   * rounds' age and whether a payment now could be converted. Reported, not part of `status`:
   * a stale feed holds back those invoices' conversions (they wait, docs/currencies.md), not the
   * service, and USDC invoices do not read it.
   */
  rates: ComponentState;
};

/** `rpcUrl`: one JSON-RPC URL or a comma-separated list (the first that answers counts). */
export type HealthDeps = {
  db: Db;
  rpcUrl: string;
  indexerSchema: string;
  relayerAddress?: string;
  /** The relayer's daily gas budgets, reported with the relayer (spent today against them). */
  relayerBudget?: RelayerBudget;
};

/**
 * The relayer's gas budget today: what it has spent (and holds for refunds and payments on
 * their way) since midnight UTC, by what it paid for, against the limits. A spent budget is
 * not an outage (refunds and gasless payments wait for tomorrow, sweeps go on): reported, not
 * degraded.
 */
async function gasBudgetToday(db: Db, budget: RelayerBudget | undefined) {
  const since = utcDayStart(new Date());
  const spent = await relayerGasSpent(db, since, REFUND_GAS_RESERVE);
  return {
    day: since.toISOString().slice(0, 10),
    spent: Number(spent.total),
    spent_by_kind: {
      sweep: Number(spent.byKind.sweep),
      refund: Number(spent.byKind.refund),
      gasless: Number(spent.byKind.gasless),
    },
    limit: budget ? Number(budget.daily) : null,
    per_merchant_limit: budget?.perMerchantDaily ? Number(budget.perMerchantDaily) : null,
    exhausted: budget ? spent.total >= budget.daily : false,
  };
}

/** Below this much ETH the relayer is reported low: sweeps would start failing. */
const MIN_RELAYER_WEI = 10n ** 14n; // 0.0001 ETH, a few hundred sweeps on Base

/** A job running this long is stuck: every job is bounded well below it (a webhook at 15 s). */
const STUCK_JOB_SECONDS = 60;
/** A due reconcile waiting this long means payment detection is starved. */
const MAX_RECONCILE_WAIT_MS = 5_000;
/** How long one answer of the chain is reused: /health is polled, the RPC may be metered. */
const CHAIN_PROBE_CACHE_MS = 1_000;

/** A heartbeat older than this means the process is gone (they beat every 5 s). */
const HEARTBEAT_STALE_MS = 15_000;
/** The indexer counts as up while it is at most this many blocks behind the chain head. */
const MAX_INDEXER_LAG_BLOCKS = 10n;
/**
 * An indexer whose block stays put this long while the chain's head is above it has stopped
 * seeing the chain, however close behind it is: Ponder looping on a reorg it cannot handle, or
 * on an RPC that answers errors, is alive (its heartbeat beats) and a few blocks behind only
 * for the first seconds. Ponder moves its checkpoint at every block, events or none.
 */
const INDEXER_STALL_MS = 10_000;
/** Blocks the index may be ahead of the head read (cached up to a second) without alarm. */
const INDEXER_AHEAD_BLOCKS = 2n;

/** The indexed block /health saw last, and since when it has been that one (per process). */
let lastIndexed: { block: bigint; since: number } | null = null;

export const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms),
    ),
  ]);

const probes = new Map<string, { at: number; answer: Promise<string> }>();

/**
 * A JSON-RPC read of the chain, shared for CHAIN_PROBE_CACHE_MS by every /health hit (the
 * same answer, or the same failure): a flood of /health requests costs the RPC one call a
 * second, not one per hit.
 */
function probeChain(rpcUrl: string, method: string, params: unknown[]): Promise<string> {
  const key = JSON.stringify([rpcUrl, method, params]);
  const now = Date.now();
  const cached = probes.get(key);
  if (cached && now - cached.at < CHAIN_PROBE_CACHE_MS) return cached.answer;
  const answer = withTimeout(rpcRequestAny<string>(rpcUrl, method, params), 2_000);
  answer.catch(() => {});
  probes.set(key, { at: now, answer });
  return answer;
}

const failed = (error: unknown): ComponentState => ({
  ok: false,
  error: error instanceof Error ? error.message : String(error),
});

/** Every component's state; `ok` only when all of them are. Never throws. */
export async function checkHealth(deps: HealthDeps): Promise<HealthReport> {
  const database = withTimeout(pingDatabase(deps.db), 2_000).then(
    (): ComponentState => ({ ok: true }),
    failed,
  );
  const head = probeChain(deps.rpcUrl, "eth_blockNumber", []).then(BigInt);
  const chain = head.then(
    (block): ComponentState => ({ ok: true, head_block: Number(block) }),
    failed,
  );

  const indexer = Promise.all([
    head.catch(() => null),
    withTimeout(indexedHead(deps.db, deps.indexerSchema), 2_000),
    withTimeout(heartbeatAgeMs(deps.db, "indexer"), 2_000),
  ]).then(([headBlock, indexed, age]): ComponentState => {
    // No heartbeat at all (the start clears them; a clean stop withdraws its own) is a process
    // still loading Ponder or catching up to where it stopped (it beats once Ponder indexes
    // live, indexer/ponderLive.ts), not one that died: a dead one leaves its last beat, which
    // goes stale.
    if (age === null)
      return { ok: false, starting: true, error: "starting: not indexing live yet" };
    if (indexed === null)
      return { ok: false, starting: true, error: "starting: has not indexed a block yet" };
    const now = Date.now();
    if (lastIndexed?.block !== indexed) lastIndexed = { block: indexed, since: now };
    const lag = headBlock === null ? null : headBlock - indexed;
    const alive = age !== null && age < HEARTBEAT_STALE_MS;
    const caughtUp = lag !== null && lag <= MAX_INDEXER_LAG_BLOCKS;
    const ahead = lag !== null && -lag > INDEXER_AHEAD_BLOCKS;
    const stalledMs = lag !== null && lag > 0n ? now - lastIndexed.since : 0;
    const stalled = stalledMs >= INDEXER_STALL_MS;
    const error = !alive
      ? "no heartbeat from the indexer process"
      : ahead
        ? `its index reaches block ${indexed}, beyond the chain's head: it is not of this chain`
        : stalled
          ? `not making progress: at block ${indexed} for ${Math.round(stalledMs / 1000)} s while the chain is at ${headBlock}`
          : !caughtUp
            ? "behind the chain head"
            : undefined;
    return {
      ok: error === undefined,
      indexed_block: Number(indexed),
      lag_blocks: lag === null ? null : Number(lag),
      ...(error ? { error } : {}),
    };
  }, failed);

  // Alive is not enough: a worker whose jobs hang, or whose payment detection waits behind
  // other work, is reported too.
  const worker = Promise.all([
    withTimeout(heartbeatAgeMs(deps.db, "worker"), 2_000),
    withTimeout(findJobBacklog(deps.db, STUCK_JOB_SECONDS), 2_000),
  ]).then(([age, backlog]): ComponentState => {
    if (age === null) return { ok: false, error: "has not started" };
    const jobs = {
      stuck_jobs: backlog.stuckJobs,
      oldest_waiting_reconcile_ms: backlog.oldestWaitingReconcileMs,
    };
    if (age >= HEARTBEAT_STALE_MS)
      return { ok: false, error: "no heartbeat", last_beat_ms_ago: Math.round(age), ...jobs };
    const stuck = backlog.stuckJobs > 0;
    const starved = (backlog.oldestWaitingReconcileMs ?? 0) > MAX_RECONCILE_WAIT_MS;
    return {
      ok: !stuck && !starved,
      last_beat_ms_ago: Math.round(age),
      ...jobs,
      ...(stuck ? { error: `jobs running for over ${STUCK_JOB_SECONDS} s` } : {}),
      ...(!stuck && starved
        ? { error: "payment detection is waiting: reconcile jobs are not being taken" }
        : {}),
    };
  }, failed);

  const relayer = deps.relayerAddress
    ? Promise.all([
        probeChain(deps.rpcUrl, "eth_getBalance", [deps.relayerAddress, "latest"]).then(BigInt),
        withTimeout(countFailingSweeps(deps.db), 2_000),
        withTimeout(gasBudgetToday(deps.db, deps.relayerBudget), 2_000),
      ]).then(([wei, failingSweeps, gasBudget]): ComponentState => {
        const low = wei < MIN_RELAYER_WEI;
        return {
          ok: !low && failingSweeps === 0,
          address: deps.relayerAddress,
          eth_wei: wei.toString(),
          failing_sweeps: failingSweeps,
          gas_budget: gasBudget,
          ...(low ? { error: "the relayer is low on ETH: sweeps cannot pay for gas" } : {}),
          ...(!low && failingSweeps ? { error: "sweeps are failing: see app.sweeps" } : {}),
        };
      }, failed)
    : undefined;

  const rates = sharedFeedsReading(deps.rpcUrl).then(feedsReport, failed);
  const components = {
    database: await database,
    chain: await chain,
    indexer: await indexer,
    worker: await worker,
    ...(relayer ? { relayer: await relayer } : {}),
  };
  return { status: overallStatus(components), components, rates: await rates };
}

/** `ok` when every component is, `starting` when only the indexer is not and it is starting. */
export function overallStatus(components: HealthReport["components"]): HealthReport["status"] {
  const down = Object.entries(components).filter(([, state]) => !state.ok);
  if (down.length === 0) return "ok";
  const [name, state] = down[0] ?? [];
  return down.length === 1 && name === "indexer" && state?.starting === true
    ? "starting"
    : "degraded";
}
