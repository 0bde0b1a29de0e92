import { afterEach, describe, expect, test } from "vitest";
import type { Logger } from "../internal/logger.ts";
import { isAlive, waitFor } from "../internal/process.ts";
import { restartDelay, SupervisedChild } from "./supervisor.ts";

const quietLogger = (): Logger & { lines: string[] } => {
  const lines: string[] = [];
  const write = (message: string) => void lines.push(message);
  const logger = { debug: write, info: write, warn: write, error: write, lines } as Logger & {
    lines: string[];
  };
  logger.child = () => logger;
  return logger;
};

describe("restartDelay", () => {
  test("doubles from half a second and caps at 30 s", () => {
    expect([1, 2, 3, 4, 7, 8, 20].map(restartDelay)).toEqual([
      500, 1_000, 2_000, 4_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe("SupervisedChild", () => {
  let child: SupervisedChild | undefined;
  afterEach(async () => {
    await child?.stop();
  });

  test("restarts a child that was killed, and logs its death", async () => {
    const log = quietLogger();
    child = new SupervisedChild(
      { name: "sleeper", command: "sleep", args: ["60"], env: process.env },
      log,
    );
    child.start();
    const first = child.pid;
    expect(first).toBeTypeOf("number");
    process.kill(first as number, "SIGKILL");
    const second = await waitFor(
      "a restarted child",
      async () => child?.pid !== first && child?.pid,
    );
    expect(second).not.toBe(first);
    expect(child.restarts).toBe(1);
    expect(log.lines).toContain("exited unexpectedly, restarting");
  });

  test("stop() ends the child for good", async () => {
    child = new SupervisedChild(
      { name: "sleeper", command: "sleep", args: ["60"], env: process.env },
      quietLogger(),
    );
    child.start();
    const pid = child.pid as number;
    await child.stop();
    expect(isAlive(pid)).toBe(false);
    expect(child.pid).toBeUndefined();
  });

  test("restarts a child that says it cannot make progress, with backoff, and each time", async () => {
    const log = quietLogger();
    // Prints the stuck line every 100 ms while it runs, as Ponder does its reorg every second.
    const script =
      "setInterval(() => console.log('Encountered unrecoverable reorg'), 100); process.on('SIGTERM', () => process.exit(0))";
    child = new SupervisedChild(
      {
        name: "looper",
        command: process.execPath,
        args: ["-e", script],
        env: process.env,
        stuckLine: /Encountered unrecoverable/,
      },
      log,
    );
    child.start();
    const first = child.pid;
    await waitFor("a restart", async () => child?.restarts === 2, { timeoutMs: 30_000 });
    expect(child.pid).not.toBe(first);
    expect(log.lines.filter((line) => line === "restarting: it cannot make progress").length).toBe(
      2,
    );
    expect(log.lines).toContain("stopped, restarting");
    expect(log.lines).not.toContain("exited unexpectedly, restarting");
  }, 40_000);

  test("start() runs one child at most, and none after stop() or during a restart's wait", async () => {
    child = new SupervisedChild(
      { name: "sleeper", command: "sleep", args: ["60"], env: process.env },
      quietLogger(),
    );
    child.start();
    const pid = child.pid;
    child.start();
    expect(child.pid).toBe(pid);
    // Killed: the restart waits its backoff (and the clean-up before it); start() adds nothing.
    process.kill(pid as number, "SIGKILL");
    await waitFor("the child's exit", async () => child?.pid === undefined);
    child.start();
    expect(child.pid).toBeUndefined();
    const restarted = await waitFor("the restart", async () => child?.pid);
    expect(child.restarts).toBe(1);
    await child.stop();
    child.start();
    expect(child.pid).toBeUndefined();
    expect(isAlive(restarted)).toBe(false);
  });
});
