import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { devAccounts } from "../../chain/deployUsdc.ts";
import { startLocalChain } from "../../chain/localChain.ts";
import { rpcRequest } from "../../chain/rpc.ts";
import { freePort } from "../../internal/freePort.ts";
import { waitFor } from "../../internal/process.ts";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "remit-chain-saved-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const SAVED = () => path.join(dataDir, "chain/state.saved.json");
const head = async (url: string) => Number(await rpcRequest<string>(url, "eth_blockNumber", []));

/** Every read of the saved state that was not whole JSON (a file seen half written). */
const halfWritten: string[] = [];

/** The head block of the saved state, or null while there is none (or it is not whole). */
async function savedHead(): Promise<number | null> {
  const text = await readFile(SAVED(), "utf8").catch(() => null);
  if (text === null) return null;
  try {
    return Number((JSON.parse(text) as { block: { number: string } }).block.number);
  } catch (error) {
    halfWritten.push(`${text.length} bytes: ${(error as Error).message}`);
    return null;
  }
}

// Anvil's own periodic dump wrote its file in place: a kill -9 during a write (a tenth of the
// time on a chain of a few thousand blocks) left it cut short, and the next start fell back to
// the state the start before it loaded, losing every payment since (the CI failure of stop 58).
test("a kill -9 of anvil: the next start resumes from the state saved whole while it ran, never from a file half written", async () => {
  const notes: string[] = [];
  const options = {
    dataDir,
    blockTime: 0,
    onNote: (line: string) => notes.push(line),
    onWarn: (line: string) => notes.push(line),
  };
  const chain = await startLocalChain({ ...options, port: await freePort() });
  let last = 0;
  try {
    // Each transaction mined is saved within a tick; every read of the file, at any moment, is
    // whole. (Empty blocks are not saved: chain/savedState.ts.)
    for (let round = 0; round < 4; round++) {
      await rpcRequest(chain.url, "anvil_mine", ["0x3"]);
      await rpcRequest(chain.url, "eth_sendTransaction", [
        { from: devAccounts[0]?.address, to: devAccounts[1]?.address, value: "0x1" },
      ]);
      last = await head(chain.url);
      await waitFor(
        `the saved state to hold block ${last}`,
        async () => ((await savedHead()) ?? 0) >= last,
        { timeoutMs: 30_000, intervalMs: 20 },
      );
    }
    expect(halfWritten).toEqual([]);
    chain.process.kill("SIGKILL");
    await waitFor(
      "anvil to exit",
      async () => chain.process.exitCode !== null || !!chain.process.signalCode,
      {
        timeoutMs: 10_000,
      },
    );
  } finally {
    await chain.stop();
  }
  const again = await startLocalChain({ ...options, port: await freePort() });
  try {
    expect(notes.join("\n")).toMatch(/resuming the local chain from \S+state\.saved\.json/);
    expect(await head(again.url)).toBeGreaterThanOrEqual(last);
  } finally {
    await again.stop();
  }
  // A clean stop leaves anvil's exit dump, newer than the saved state: the next start takes it.
  notes.length = 0;
  const third = await startLocalChain({ ...options, port: await freePort() });
  try {
    expect(notes.join("\n")).toMatch(/resuming the local chain from \S+chain\/state\.json/);
  } finally {
    await third.stop();
  }
}, 180_000);
