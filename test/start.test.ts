import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../internal/freePort.ts";
import { isAlive, waitFor } from "../internal/process.ts";
import { parseMetrics, sampleValue } from "./helpers/prometheus.ts";
import {
  childPids,
  exitCode,
  logLines,
  type Service,
  startService,
  waitForLine,
} from "./helpers/service.ts";

const pidsOf = childPids;

/**
 * Upper bounds for a machine three times slower than a busy CI runner: `ready` (a first start
 * bundles the code and creates the database), and an event that takes a second or two on a
 * quiet one (a child restarted, /health recovering, a job counted).
 */
const READY_MS = 300_000;
const EVENT_MS = 60_000;

/** Every process a stack runs: the supervisor, its children, postgres and anvil. */
async function stackPids(service: Service, dataDir: string): Promise<number[]> {
  const children = ["indexer", "api", "worker"].flatMap((name) => pidsOf(service.output(), name));
  const postgres = Number(
    (await readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8").catch(() => "")).split(
      "\n",
    )[0],
  );
  const anvil = Number(
    await readFile(path.join(dataDir, "chain/anvil.pid"), "utf8").catch(() => ""),
  );
  return [service.child.pid ?? 0, ...children, postgres, anvil].filter((pid) => pid > 0);
}

/** Stops it as a service manager does (SIGTERM, then waits), and checks nothing is left. */
async function stopStack(service: Service, dataDir: string): Promise<void> {
  const pids = await stackPids(service, dataDir);
  if (service.child.exitCode === null && service.child.signalCode === null) {
    service.child.kill("SIGTERM");
    expect(await exitCode(service)).toBe(0);
  }
  await waitFor("every process of the stack to exit", async () => !pids.some(isAlive), {
    timeoutMs: EVENT_MS,
  }).catch(() => {
    throw new Error(`still running: ${pids.filter(isAlive).join(", ")}`);
  });
}

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
      WORKER_METRICS_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
      LOG_LEVEL: "info",
    };
  });
  afterAll(async () => {
    // Never SIGKILL to the main process alone: anvil and postgres, each a process group of
    // its own, are stopped by it.
    if (service) await stopStack(service, dataDir);
    await rm(dataDir, { recursive: true, force: true });
  });

  test("reaches ready, survives kill -9 of the indexer, stops cleanly and starts again", async () => {
    service = startService(env);
    const first = service;
    await waitForLine(first, /ready in/, READY_MS);
    const ready = logLines(first.output()).find((line) => /^ready in [\d.]+s$/.test(`${line.msg}`));
    // `ready`: the API and the worker serve. The indexer starts then (platform/start.ts), so
    // the line names it as still starting, and /health says so until it has caught up.
    expect(ready?.starting).toEqual(["indexer"]);
    await waitForLine(first, /healthy in/, READY_MS);
    // `healthy` means /health answers 200: at once, not a moment later.
    expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
    const healthyLine = logLines(first.output()).find((line) =>
      /^healthy in [\d.]+s$/.test(`${line.msg}`),
    );
    // And it was 200 without a break for longer than the chain head it rests on is cached.
    const phases = healthyLine?.phases as Record<string, number>;
    expect(
      (phases.healthy ?? 0) - (phases.first_healthy ?? Number.POSITIVE_INFINITY),
    ).toBeGreaterThanOrEqual(1_000);
    expect(phases.ready).toBeLessThan(phases.indexer_ok ?? 0);
    expect(ready).toMatchObject({
      level: "info",
      component: "remit",
      api: `http://localhost:${env.PORT}`,
      metrics: `http://localhost:${env.PORT}/metrics`,
      worker_metrics: `http://127.0.0.1:${env.WORKER_METRICS_PORT}/metrics`,
    });
    // The children's lines pass through the supervisor as the JSON their loggers wrote.
    const components = new Set(logLines(first.output()).map((line) => line.component));
    for (const component of ["remit", "api", "worker"]) expect(components).toContain(component);
    // Each of the worker's queues is a graphile-worker runner logging under its own name.
    for (const queue of ["payments", "email", "webhooks", "chain"])
      expect(components).toContain(`worker/graphile/${queue}`);
    expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
    // The worker serves its job metrics on the port npm start gave it: the start-up
    // reconcile_all job is counted there.
    await waitFor(
      "reconcile_all in the worker's metrics",
      async () => {
        const samples = parseMetrics(await (await fetch(`${ready?.worker_metrics}`)).text());
        const runs = sampleValue(samples, "remit_jobs_total", {
          task: "reconcile_all",
          outcome: "success",
        });
        return runs !== undefined && runs >= 1;
      },
      { timeoutMs: EVENT_MS },
    );

    // A second `npm start` on the same DATA_DIR refuses, and leaves the running one alone.
    const intruder = startService({
      ...env,
      PORT: String(await freePort()),
      INDEXER_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
    });
    expect(await exitCode(intruder)).toBe(1);
    expect(intruder.output()).toMatch(/in use by another running npm start \(pid \d+\)/);
    expect((await fetch(`${apiUrl}/health`)).status).toBe(200);

    const [indexerPid] = pidsOf(first.output(), "indexer");
    process.kill(indexerPid as number, "SIGKILL");
    await waitFor(
      "the indexer to be restarted",
      async () => pidsOf(first.output(), "indexer").length === 2,
      { timeoutMs: EVENT_MS },
    );
    expect(logLines(first.output())).toContainEqual(
      expect.objectContaining({
        level: "error",
        component: "remit/indexer",
        msg: "exited unexpectedly, restarting",
        signal: "SIGKILL",
      }),
    );
    // The API kept serving throughout, and the restarted indexer catches up.
    const healthy = await waitFor(
      "health to recover",
      async () => (await fetch(`${apiUrl}/health`)).status === 200,
      { timeoutMs: 2 * EVENT_MS, intervalMs: 250 },
    );
    expect(healthy).toBe(true);

    const everything = await stackPids(first, dataDir);
    first.child.kill("SIGINT");
    expect(await exitCode(first)).toBe(0);
    for (const pid of everything) expect(isAlive(pid), `pid ${pid}`).toBe(false);

    service = startService(env);
    const second = service;
    await waitForLine(second, /ready in/, READY_MS);
    expect(second.output()).toMatch(/resuming the local chain/);
    expect(second.output()).not.toMatch(/migrations applied/);
    const all = await stackPids(second, dataDir);
    second.child.kill("SIGINT");
    expect(await exitCode(second)).toBe(0);
    for (const pid of all) expect(isAlive(pid), `pid ${pid}`).toBe(false);
  }, 900_000);
});
