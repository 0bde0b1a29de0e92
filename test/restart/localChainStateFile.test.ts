import { copyFile, stat, truncate } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { childPids } from "../helpers/service.ts";
import {
  ctrlC,
  EVENT_MS,
  expectPaid,
  expectRebuilt,
  newStack,
  payNewInvoice,
  sigterm,
  stateSaved,
  stopStacksAfterAll,
} from "./localChain.ts";

/**
 * Issue 40: a chain state file cut short or older than the index is recovered from; /health
 * names an indexer that cannot progress.
 */
describe("npm start on a local chain that forgot, or an indexer that stalls", () => {
  stopStacksAfterAll();

  test("a state file cut short by a kill during its write: the chain resumes from the newest state saved whole, else from the state its previous start loaded, the index rebuilt", async () => {
    const { start, dataDir } = await newStack();
    const chainDir = path.join(dataDir, "chain");
    let stack = await start();
    const kept = (await payNewInvoice(stack)).id;
    await sigterm(stack);
    // This start loads the state holding the first payment, and keeps it (state.loaded.json).
    stack = await start();
    const saved = await payNewInvoice(stack);
    await stateSaved(stack, saved.block);
    await sigterm(stack);
    // Anvil writes its exit dump in place: killed during that write, it leaves it cut short.
    const state = path.join(chainDir, "state.json");
    await truncate(state, Math.floor((await stat(state)).size / 2));

    // The state saved while the chain ran holds the second payment: nothing is lost.
    stack = await start();
    expect(stack.output()).toMatch(/anvil cannot load the local chain's state file/);
    expect(stack.output()).toMatch(/resuming the local chain from \S+state\.saved\.json/);
    await expectPaid(stack, [kept, saved.id]);
    const lost = await payNewInvoice(stack);
    await stateSaved(stack, lost.block);
    await sigterm(stack);

    // Both cut short (a disk that lost them): the state the previous start loaded is older than
    // the index, which is rebuilt; what came after it is taken back.
    await truncate(state, Math.floor((await stat(state)).size / 2));
    const whole = path.join(chainDir, "state.saved.json");
    await truncate(whole, Math.floor((await stat(whole)).size / 2));
    stack = await start();
    expect(stack.output()).toMatch(/resuming the local chain from \S+state\.loaded\.json/);
    await expectRebuilt(stack, kept, lost.id);
  }, 900_000);

  test("a state file older than the index (copied from an earlier stop): the index is rebuilt from the chain", async () => {
    const { start, dataDir } = await newStack();
    let stack = await start();
    const kept = (await payNewInvoice(stack)).id;
    await sigterm(stack);
    const state = path.join(dataDir, "chain/state.json");
    await copyFile(state, `${state}.earlier`);

    stack = await start();
    const forgotten = (await payNewInvoice(stack)).id;
    // Enough blocks for the copied state to be far behind what is indexed.
    await sigterm(stack);
    await copyFile(`${state}.earlier`, state);

    stack = await start();
    await expectRebuilt(stack, kept, forgotten);
  }, 900_000);

  test("/health turns 503 naming the indexer while it cannot progress, and 200 once it can", async () => {
    const { start } = await newStack();
    const stack = await start();
    const [indexer] = childPids(stack.output(), "indexer");
    process.kill(indexer as number, "SIGSTOP");
    try {
      const report = await waitFor(
        "health to turn 503",
        async () => {
          const response = await fetch(`${stack.apiUrl}/health`);
          return (
            response.status === 503 &&
            ((await response.json()) as {
              components: Record<string, { ok: boolean; error?: string }>;
            })
          );
        },
        { timeoutMs: EVENT_MS, intervalMs: 100 },
      );
      expect(report.components.indexer?.ok).toBe(false);
      expect(report.components.indexer?.error).toMatch(/not making progress|no heartbeat/);
    } finally {
      process.kill(indexer as number, "SIGCONT");
    }
    await waitFor(
      "health to be 200 again",
      async () => (await fetch(`${stack.apiUrl}/health`)).status === 200,
      {
        timeoutMs: EVENT_MS,
        intervalMs: 100,
      },
    );
    await payNewInvoice(stack);
    await ctrlC(stack);
  }, 600_000);
});
