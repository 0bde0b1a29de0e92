import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../platform/freePort.ts";
import { isAlive, stopProcess, waitFor } from "../platform/process.ts";
import { childPids, startService, waitForLine } from "./helpers/service.ts";

const pidsOf = childPids;

describe("npm start", () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let service: ReturnType<typeof startService> | undefined;
  let apiUrl: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-start-"));
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      ANVIL_PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      INDEXER_PORT: String(await freePort()),
      LOG_LEVEL: "info",
    };
  });
  afterAll(async () => {
    if (service) await stopProcess(service.child, "SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  test("reaches ready, survives kill -9 of the indexer, stops cleanly and starts again", async () => {
    service = startService(env);
    const first = service;
    await waitForLine(first, /ready in/);
    expect(first.output()).toMatch(
      new RegExp(`ready in [\\d.]+s api=http://localhost:${env.PORT}`),
    );
    expect((await fetch(`${apiUrl}/health`)).status).toBe(200);

    const [indexerPid] = pidsOf(first.output(), "indexer");
    process.kill(indexerPid as number, "SIGKILL");
    await waitFor(
      "the indexer to be restarted",
      async () => pidsOf(first.output(), "indexer").length === 2,
    );
    expect(first.output()).toMatch(
      /remit\/indexer exited unexpectedly, restarting .*signal=SIGKILL/,
    );
    // The API kept serving throughout, and the restarted indexer catches up.
    const healthy = await waitFor(
      "health to recover",
      async () => (await fetch(`${apiUrl}/health`)).status === 200,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(healthy).toBe(true);

    const childPids = ["indexer", "api", "worker"].flatMap((name) => pidsOf(first.output(), name));
    const postgresPid = Number(
      (await readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8")).split("\n")[0],
    );
    const anvilPid = Number(await readFile(path.join(dataDir, "chain/anvil.pid"), "utf8"));
    first.child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => first.child.once("exit", resolve));
    expect(code).toBe(0);
    for (const pid of [...childPids, postgresPid, anvilPid])
      expect(isAlive(pid), `pid ${pid}`).toBe(false);

    service = startService(env);
    const second = service;
    await waitForLine(second, /ready in/);
    expect(second.output()).toMatch(/resuming the local chain/);
    expect(second.output()).not.toMatch(/migrations applied/);
    second.child.kill("SIGINT");
    expect(await new Promise((resolve) => second.child.once("exit", resolve))).toBe(0);
  }, 240_000);
});
