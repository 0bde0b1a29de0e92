import { describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { childPids, privatePorts } from "../helpers/service.ts";
import {
  ctrlC,
  exited,
  expectNothingLeft,
  launch,
  newStack,
  processesOf,
  READY_MS,
  sigterm,
  stopStacksAfterAll,
} from "./localChain.ts";

/**
 * Issue 40: a new DATA_DIR stopped as a terminal and as a service manager stop it, started again;
 * a stack stopped before it was ever ready leaves nothing running.
 */
describe("npm start on the simulated chain, stopped and started again", () => {
  stopStacksAfterAll();

  test("a new DATA_DIR stopped as soon as it is ready, by Ctrl-C and by SIGTERM, starts again, three times each", async () => {
    for (const stop of [ctrlC, sigterm, ctrlC, sigterm, ctrlC, sigterm]) {
      const { start } = await newStack();
      await stop(await start("ready"));
      const again = await start("ready");
      expect(again.output()).toMatch(/resuming the local chain/);
      await stop(again);
    }
  }, 1_800_000);

  test("a stack stopped before it became ready leaves no process behind", async () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const { dataDir } = await newStack();
      const { env, apiUrl } = await privatePorts();
      const stack = launch(dataDir, env, apiUrl);
      // Stopped once its chain and database run and its children are starting (the API and the
      // worker; the indexer starts at `ready`).
      await waitFor(
        "the children to start",
        async () => childPids(stack.output(), "api").length > 0,
        {
          timeoutMs: READY_MS,
          intervalMs: 50,
        },
      );
      const pids = await processesOf(stack);
      expect(stack.output()).not.toMatch(/"msg":"ready in/);
      if (signal === "SIGINT") process.kill(-(stack.child.pid as number), "SIGINT");
      else stack.child.kill("SIGTERM");
      await exited(stack);
      await expectNothingLeft(stack, pids);
    }
  }, 600_000);
});
