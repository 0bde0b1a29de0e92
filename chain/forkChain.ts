import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Address } from "viem";
import { type Anvil, startAnvil } from "./anvil.ts";
import { fundDevAccountsFromWhale } from "./fundFromWhale.ts";
import { stopStaleAnvil } from "./localChain.ts";
import { rpcRequest } from "./rpc.ts";
import { dropStates, keepsState, startFromNewestState } from "./savedState.ts";

export type ForkedChainOptions = {
  dataDir: string;
  port: number;
  blockTime: number;
  /** The upstream: real Base, or anything that is chain 8453 with USDC (checked before). */
  forkUrl: string;
  /** The block to fork at; default: the upstream's latest when the fork is created. */
  forkBlockNumber?: number;
  /** An address holding USDC upstream, impersonated to fund the dev accounts. */
  whale: Address;
  onLine?: (line: string) => void;
  onNote?: (line: string) => void;
};

/** What `<dataDir>/chain-fork/fork.json` remembers of the fork its state belongs to. */
type ForkRecord = { forkBlock: number; forkBlockHash: string; session: string };

export type ForkedChain = Anvil & ForkRecord;

/**
 * Fork mode: anvil forking `forkUrl`, so USDC is whatever lives at the canonical address
 * upstream. A new fork is pinned to a block, and the dev accounts are funded from the whale
 * with real transfers. Its state (blocks included) is kept in `<dataDir>/chain-fork/` and
 * resumed on the next start while the upstream still has the same block at the fork point and
 * `forkBlockNumber` asks for no other; otherwise a new fork (a new `session`) starts.
 */
export async function startForkedChain(options: ForkedChainOptions): Promise<ForkedChain> {
  const dir = path.join(options.dataDir, "chain-fork");
  await mkdir(dir, { recursive: true });
  const pidFile = path.join(dir, "anvil.pid");
  await stopStaleAnvil(pidFile, options.onNote);
  const recordFile = path.join(dir, "fork.json");

  const previous = await readRecord(recordFile);
  const resumable =
    previous !== null &&
    (await keepsState(dir)) &&
    (options.forkBlockNumber === undefined || options.forkBlockNumber === previous.forkBlock) &&
    (await blockHash(options.forkUrl, previous.forkBlock)) === previous.forkBlockHash;
  let record: ForkRecord;
  if (resumable) {
    record = previous;
    options.onNote?.(`resuming the fork made at block ${record.forkBlock}`);
  } else {
    await Promise.all([dropStates(dir), rm(recordFile, { force: true })]);
    const forkBlock =
      options.forkBlockNumber ??
      Number(await rpcRequest<string>(options.forkUrl, "eth_blockNumber", []));
    const forkBlockHash = await blockHash(options.forkUrl, forkBlock);
    if (!forkBlockHash)
      throw new Error(`BASE_FORK_BLOCK_NUMBER ${forkBlock}: the upstream has no such block`);
    record = { forkBlock, forkBlockHash, session: randomUUID() };
  }

  const anvil = await startFromNewestState({
    dir,
    label: "the fork",
    fresh: async () => ({ note: `forking the upstream at block ${record.forkBlock}` }),
    start: (loadState, dumpState) =>
      startAnvil({
        port: options.port,
        blockTime: options.blockTime,
        forkUrl: options.forkUrl,
        forkBlockNumber: record.forkBlock,
        loadState,
        dumpState,
        onLine: options.onLine,
      }),
    onNote: options.onNote,
  });
  if (anvil.process.pid) await writeFile(pidFile, String(anvil.process.pid));
  if (!resumable) {
    try {
      const moved = await fundDevAccountsFromWhale(anvil.url, options.whale);
      options.onNote?.(
        `forked at block ${record.forkBlock}; funded the dev accounts with ${moved / 1_000_000n} USDC from USDC_WHALE ${options.whale}`,
      );
    } catch (error) {
      await anvil.stop();
      throw error;
    }
    // Written last: a fork whose funding failed is not resumed.
    await writeFile(recordFile, JSON.stringify(record));
  }
  return { ...anvil, ...record };
}

async function readRecord(file: string): Promise<ForkRecord | null> {
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as ForkRecord;
  } catch {
    return null;
  }
}

async function blockHash(url: string, block: number): Promise<string | null> {
  const found = await rpcRequest<{ hash: string } | null>(url, "eth_getBlockByNumber", [
    `0x${block.toString(16)}`,
    false,
  ]);
  return found?.hash ?? null;
}
