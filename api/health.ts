import { rpcRequestAny } from "../chain/rpc.ts";
import type { Db } from "../db/database.ts";
import { heartbeatAgeMs } from "../db/queries/heartbeats.ts";
import { indexedHead } from "../db/queries/indexer.ts";
import { pingDatabase } from "../db/queries/pingDatabase.ts";
import { countFailingSweeps } from "../db/queries/sweeps.ts";

export type ComponentState = { ok: boolean; [detail: string]: unknown };

export type HealthReport = {
  status: "ok" | "degraded";
  components: {
    database: ComponentState;
    chain: ComponentState;
    indexer: ComponentState;
    worker: ComponentState;
    relayer?: ComponentState;
  };
};

/** `rpcUrl`: one JSON-RPC URL or a comma-separated list (the first that answers counts). */
export type HealthDeps = { db: Db; rpcUrl: string; indexerSchema: string; relayerAddress?: string };

/** Below this much ETH the relayer is reported low: sweeps would start failing. */
const MIN_RELAYER_WEI = 10n ** 14n; // 0.0001 ETH, a few hundred sweeps on Base

/** A heartbeat older than this means the process is gone (they beat every 5 s). */
const HEARTBEAT_STALE_MS = 15_000;
/** The indexer counts as up while it is at most this many blocks behind the chain head. */
const MAX_INDEXER_LAG_BLOCKS = 10n;

export const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms),
    ),
  ]);

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
  const head = withTimeout(rpcRequestAny<string>(deps.rpcUrl, "eth_blockNumber", []), 2_000).then(
    BigInt,
  );
  const chain = head.then(
    (block): ComponentState => ({ ok: true, head_block: Number(block) }),
    failed,
  );

  const indexer = Promise.all([
    head.catch(() => null),
    withTimeout(indexedHead(deps.db, deps.indexerSchema), 2_000),
    withTimeout(heartbeatAgeMs(deps.db, "indexer"), 2_000),
  ]).then(([headBlock, indexed, age]): ComponentState => {
    if (indexed === null) return { ok: false, error: "has not indexed a block yet" };
    const lag = headBlock === null ? null : headBlock - indexed;
    const alive = age !== null && age < HEARTBEAT_STALE_MS;
    const caughtUp = lag !== null && lag <= MAX_INDEXER_LAG_BLOCKS;
    return {
      ok: alive && caughtUp,
      indexed_block: Number(indexed),
      lag_blocks: lag === null ? null : Number(lag),
      ...(alive ? {} : { error: "no heartbeat from the indexer process" }),
      ...(alive && !caughtUp ? { error: "behind the chain head" } : {}),
    };
  }, failed);

  const worker = withTimeout(heartbeatAgeMs(deps.db, "worker"), 2_000).then(
    (age): ComponentState => {
      if (age === null) return { ok: false, error: "has not started" };
      if (age >= HEARTBEAT_STALE_MS)
        return { ok: false, error: "no heartbeat", last_beat_ms_ago: Math.round(age) };
      return { ok: true, last_beat_ms_ago: Math.round(age) };
    },
    failed,
  );

  const relayer = deps.relayerAddress
    ? Promise.all([
        withTimeout(
          rpcRequestAny<string>(deps.rpcUrl, "eth_getBalance", [deps.relayerAddress, "latest"]),
          2_000,
        ).then(BigInt),
        withTimeout(countFailingSweeps(deps.db), 2_000),
      ]).then(([wei, failingSweeps]): ComponentState => {
        const low = wei < MIN_RELAYER_WEI;
        return {
          ok: !low && failingSweeps === 0,
          address: deps.relayerAddress,
          eth_wei: wei.toString(),
          failing_sweeps: failingSweeps,
          ...(low ? { error: "the relayer is low on ETH: sweeps cannot pay for gas" } : {}),
          ...(!low && failingSweeps ? { error: "sweeps are failing: see app.sweeps" } : {}),
        };
      }, failed)
    : undefined;

  const components = {
    database: await database,
    chain: await chain,
    indexer: await indexer,
    worker: await worker,
    ...(relayer ? { relayer: await relayer } : {}),
  };
  const ok = Object.values(components).every((component) => component.ok);
  return { status: ok ? "ok" : "degraded", components };
}
