import path from "node:path";
import type { Address } from "viem";
import { checkBaseChain, RpcUnreachableError } from "../chain/checkBase.ts";
import { startForkedChain } from "../chain/forkChain.ts";
import {
  LOCAL_CHAIN_IDENTITY_BLOCK,
  startLocalChain,
  stopStaleAnvil,
} from "../chain/localChain.ts";
import { describeRpcUrl } from "../chain/rpc.ts";
import { ensureDatabase, stopStalePostmaster } from "../db/embeddedPostgres.ts";
import { type Env, splitRpcUrls } from "../internal/env.ts";
import { createLogger, type Logger } from "../internal/logger.ts";
import { superviseEmbeddedPostgres } from "./postgresSupervisor.ts";
import type { StartPhases } from "./startPhases.ts";

/**
 * The database and the chain `npm start` runs on: the embedded Postgres and the local (or
 * forked) anvil when nothing is configured, else the configured ones, checked. What starts
 * here registers its stop with the supervisor (platform/start.ts), which stops it last.
 */

/** What a piece of the start-up registers its stop with and marks its phases on. */
export type StartResources = {
  /** Registers a stop; stops run newest first when the supervisor stops. */
  onStop: (stop: () => Promise<void>) => void;
  phases: StartPhases;
  /** Stops the whole supervisor (something it cannot run without died for good). */
  shutdown: (reason: string) => void;
};

const log = createLogger("remit");

/** The database's URL: DATABASE_URL, or the embedded Postgres, started (and supervised). */
export async function startDatabase(env: Env, start: StartResources): Promise<string> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const pgLog = createLogger("postgres");
  const postgres = await superviseEmbeddedPostgres(
    {
      dataDir: path.join(env.DATA_DIR, "postgres"),
      port: env.EMBEDDED_PG_PORT,
      // The server's own chatter is debug; a WARNING is what Remit's triggers raise when they
      // could not do their part (app.enqueue_reconcile), which an operator must see.
      onLog: (line) => (/\] WARNING: /.test(line) ? pgLog.warn(line) : pgLog.debug(line)),
    },
    pgLog,
    // The children reconnect by port alone: left running, they would write to that server.
    { onForeign: (error) => start.shutdown(`postgres not restarted: ${error.message}`) },
  );
  start.onStop(postgres.stop);
  await ensureDatabase(postgres.url("postgres"), "remit");
  start.phases.mark("database");
  log.info("embedded postgres running", {
    pid: postgres.pid,
    data: path.join(env.DATA_DIR, "postgres"),
  });
  return postgres.url("remit");
}

/**
 * The chain and database an earlier supervisor of this DATA_DIR left when it died without
 * stopping them (a kill -9, an OOM kill): their watchdog (internal/process.ts, stopWithParent)
 * has them stopping, or, without one, they still run. Either way they hold their ports, which
 * would refuse this start: they are stopped (anvil dumps its state) and waited for first. A
 * server that a running supervisor owns was refused above (refuseDataDirInUse).
 */
export async function stopLeftovers(env: Env, logger: Logger): Promise<void> {
  const note = (line: string) => logger.info(line);
  await Promise.all([
    env.DATABASE_URL ? undefined : stopStalePostmaster(path.join(env.DATA_DIR, "postgres"), note),
    env.chainMode === "mainnet"
      ? undefined
      : stopStaleAnvil(
          path.join(env.DATA_DIR, env.chainMode === "fork" ? "chain-fork" : "chain", "anvil.pid"),
          note,
        ),
  ]);
}

export const describeRpcUrls = (list: string) => splitRpcUrls(list).map(describeRpcUrl).join(",");

/** The chain the service follows, once checked to be Base with USDC. */
export type ChainInUse = {
  /** One URL, or several comma-separated (mainnet mode). */
  rpcUrl: string;
  /** The indexer's default first block: 0 on the simulated chain, the fork point on a fork. */
  startBlock: number;
  /** Identifies a fork: a new fork of the same block must not reuse the old fork's index. */
  session?: string;
  /** The block whose hash identifies the chain for the indexer's schema (default: genesis). */
  identityBlock?: number;
};

export async function startChain(env: Env, start: StartResources): Promise<ChainInUse> {
  if (env.chainMode === "mainnet") {
    await checkBaseRpcs(env.baseRpcUrls);
    return { rpcUrl: env.baseRpcUrls.join(","), startBlock: env.START_BLOCK ?? 0 };
  }
  const chainLog = createLogger("anvil");
  const common = {
    dataDir: env.DATA_DIR,
    port: env.ANVIL_PORT,
    blockTime: env.ANVIL_BLOCK_TIME,
    onLine: (line: string) => chainLog.debug(line),
    onNote: (line: string) => chainLog.info(line),
    onWarn: (line: string) => chainLog.warn(line),
  };
  if (env.chainMode === "fork" && env.BASE_FORK_URL) {
    await checkBaseChain(env.BASE_FORK_URL, { setting: "BASE_FORK_URL" });
    const fork = await startForkedChain({
      ...common,
      forkUrl: env.BASE_FORK_URL,
      forkBlockNumber: env.BASE_FORK_BLOCK_NUMBER,
      whale: env.USDC_WHALE as Address,
    });
    start.onStop(fork.stop);
    // A real fork has years of USDC history below the fork point: none of it is ours.
    return {
      rpcUrl: fork.url,
      startBlock: env.START_BLOCK ?? fork.forkBlock,
      session: fork.session,
    };
  }
  // Registered at its spawn: a stop during start-up must not leave anvil behind.
  const anvil = await startLocalChain({ ...common, onSpawned: start.onStop });
  await checkBaseChain(anvil.url, { setting: "the local chain", reachWithinMs: 5_000 });
  start.phases.mark("chain");
  return {
    rpcUrl: anvil.url,
    startBlock: env.START_BLOCK ?? 0,
    identityBlock: LOCAL_CHAIN_IDENTITY_BLOCK,
  };
}

/**
 * Checks every RPC of BASE_RPC_URL: one that answers wrongly (another chain, no USDC) stops
 * the start, since a fallback RPC on another chain would be found out too late. One that does
 * not answer is only a warning while another passed: a fallback being down is what the list
 * is for.
 */
async function checkBaseRpcs(urls: string[]): Promise<void> {
  const reachWithinMs = urls.length > 1 ? 5_000 : 60_000;
  const results = await Promise.allSettled(
    urls.map((url) => checkBaseChain(url, { setting: "BASE_RPC_URL", reachWithinMs })),
  );
  const failures = results.flatMap((result) =>
    result.status === "rejected" ? [result.reason as Error] : [],
  );
  const wrong = failures.find((error) => !(error instanceof RpcUnreachableError));
  if (wrong) throw wrong;
  if (failures.length === urls.length) throw failures[0];
  for (const error of failures) log.warn(`${error.message}; following the other RPCs meanwhile`);
}
