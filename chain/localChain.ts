import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { isAlive, owningSupervisor, waitFor } from "../internal/process.ts";
import { type Anvil, startAnvil } from "./anvil.ts";
import { ensureUsdcGenesis } from "./usdcGenesis.ts";

export type LocalChainOptions = {
  dataDir: string;
  port: number;
  blockTime: number;
  onLine?: (line: string) => void;
  onNote?: (line: string) => void;
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
 * The simulated Base that `npm start` runs when no BASE_RPC_URL is configured: anvil as chain
 * 8453 with Circle's USDC at its canonical address. Its state (blocks included) is kept in
 * `<dataDir>/chain/state.json`, written every two seconds and on exit, so payments made on it
 * survive restarts like the database does.
 */
export async function startLocalChain(options: LocalChainOptions): Promise<Anvil> {
  const dir = path.join(options.dataDir, "chain");
  await mkdir(dir, { recursive: true });
  const pidFile = path.join(dir, "anvil.pid");
  await stopStaleAnvil(pidFile, options.onNote);

  const state = path.join(dir, "state.json");
  const resumed = await stat(state).then(
    () => true,
    () => false,
  );
  const loadState = resumed ? state : await ensureUsdcGenesis(path.join(dir, "usdc-genesis.json"));
  options.onNote?.(
    resumed ? `resuming the local chain from ${state}` : "created a fresh local chain with USDC",
  );
  const anvil = await startAnvil({
    port: options.port,
    blockTime: options.blockTime,
    loadState,
    dumpState: state,
    stateInterval: 2,
    onLine: options.onLine,
  });
  if (anvil.process.pid) await writeFile(pidFile, String(anvil.process.pid));
  return anvil;
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
