import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { isAlive, owningSupervisor, waitFor } from "../internal/process.ts";
import { type Anvil, startAnvil } from "./anvil.ts";
import { installLocalFeeds, refreshStaleLocalFeeds } from "./localFeeds.ts";
import { rpcRequest } from "./rpc.ts";
import { startFromNewestState } from "./savedState.ts";
import { ensureUsdcGenesis } from "./usdcGenesis.ts";

export type LocalChainOptions = {
  dataDir: string;
  port: number;
  blockTime: number;
  onLine?: (line: string) => void;
  onNote?: (line: string) => void;
  /** What the operator should know of: a state lost (default: onNote). */
  onWarn?: (line: string) => void;
  /** Called as soon as anvil's process exists, with what stops it (for a stop during start-up). */
  onSpawned?: (stop: () => Promise<void>) => void;
};

/**
 * The block whose hash identifies the simulated chain (the indexer's schema is named after it):
 * not block 0, which anvil writes anew (timestamped now) at every reload of its state, its dump
 * then holding several block 0s of which any may win the next load; block 0's hash changed
 * across about half the restarts, each one a new schema and a full reindex. Block 1 (USDC's
 * deployment, from the genesis state) is kept as it was.
 */
export const LOCAL_CHAIN_IDENTITY_BLOCK = 1;

/**
 * The lowest head the simulated chain is started with: above Ponder's finality depth on Base
 * (30 blocks), with room. Below it, the block Ponder takes for final is block 0, which anvil
 * writes anew at a reload of its state while block 1 still names the old one as its parent:
 * Ponder then sees a reorg below its finalized block at its first new block, and loops on it
 * forever ("unrecoverable 'base' reorg beyond finalized block 0"). Every chain younger than
 * this, stopped and started again, did (docs/development.md, "The local chain across restarts").
 */
export const LOCAL_CHAIN_MIN_HEAD = 64;

/**
 * The simulated Base that `npm start` runs when no BASE_RPC_URL is configured: anvil as chain
 * 8453 with Circle's USDC at its canonical address and Chainlink-compatible price feeds at
 * Base's feed addresses. Its state (blocks included) is saved whole every two seconds while
 * the chain moves (`state.saved.json`) and dumped by anvil on exit (`state.json`), so payments
 * made on it survive restarts like the database does (startFromNewestState: what a kill leaves).
 */
export async function startLocalChain(options: LocalChainOptions): Promise<Anvil> {
  const dir = path.join(options.dataDir, "chain");
  await mkdir(dir, { recursive: true });
  const pidFile = path.join(dir, "anvil.pid");
  await stopStaleAnvil(pidFile, options.onNote);

  const anvil = await startFromNewestState({
    dir,
    label: "the local chain",
    fresh: async () => ({
      file: await ensureUsdcGenesis(path.join(dir, "usdc-genesis.json")),
      note: "created a fresh local chain with USDC",
    }),
    start: (loadState, dumpState) =>
      startAnvil({
        port: options.port,
        blockTime: options.blockTime,
        loadState,
        dumpState,
        onLine: options.onLine,
        onSpawned: options.onSpawned,
      }),
    onNote: options.onNote,
    onWarn: options.onWarn,
  });
  try {
    if (anvil.process.pid) await writeFile(pidFile, String(anvil.process.pid));
    const head = Number(await rpcRequest<string>(anvil.url, "eth_blockNumber", []));
    // Empty blocks at the same timestamp ("0x0" apart): the chain's clock does not move ahead.
    if (head < LOCAL_CHAIN_MIN_HEAD)
      await rpcRequest(anvil.url, "anvil_mine", [
        `0x${(LOCAL_CHAIN_MIN_HEAD - head).toString(16)}`,
        "0x0",
      ]);
    // A chain made before the price feeds existed gets them (a no-op on a newer one).
    await installLocalFeeds(anvil.url);
    await refreshStaleLocalFeeds(anvil.url);
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  return keepFeedsFresh(anvil, options.onNote);
}

/** How often a running local chain's feeds are looked at (a heartbeat is 24 h; half renews). */
export const LOCAL_FEED_REFRESH_MS = 60 * 60_000;

/** Renews the local chain's stale price feeds every hour while it runs; stopped with it. */
function keepFeedsFresh(anvil: Anvil, onNote?: (line: string) => void): Anvil {
  const timer = setInterval(() => {
    refreshStaleLocalFeeds(anvil.url).catch((error: Error) =>
      onNote?.(`could not renew the local price feeds: ${error.message}`),
    );
  }, LOCAL_FEED_REFRESH_MS);
  timer.unref();
  return {
    ...anvil,
    stop: () => {
      clearInterval(timer);
      return anvil.stop();
    },
  };
}

/** Stops the anvil whose pid `pidFile` names, if it is still running (a crash left it). */
export async function stopStaleAnvil(
  pidFile: string,
  note?: (line: string) => void,
): Promise<void> {
  const pid = Number(await readFile(pidFile, "utf8").catch(() => ""));
  if (!pid || !isAlive(pid)) return;
  const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  if (!command.includes("anvil")) return;
  const owner = await owningSupervisor(pid);
  if (owner)
    throw new Error(
      `this DATA_DIR's chain is in use by another running npm start (pid ${owner}); stop it first or use another DATA_DIR`,
    );
  note?.(`stopping an anvil left over from an earlier run (pid ${pid})`);
  process.kill(pid, "SIGINT");
  await waitFor(`stale anvil ${pid} to exit`, async () => !isAlive(pid), { timeoutMs: 15_000 });
}
