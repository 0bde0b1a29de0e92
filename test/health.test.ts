import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HealthReport } from "../api/health.ts";
import { waitFor } from "../internal/process.ts";
import { chainUrl } from "./helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/database.ts";
import { startApi, startIndexer, startWorker, type TestProcess } from "./helpers/processes.ts";
import { EVENT_MS } from "./helpers/waits.ts";

const health = async (url: string) => {
  const response = await fetch(`${url}/health`);
  return { status: response.status, body: (await response.json()) as HealthReport };
};

describe("GET /health", () => {
  let database: TestDatabase;
  let api: TestProcess & { url: string };
  let indexer: TestProcess;
  let worker: TestProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    const settings = { databaseUrl: database.url, rpcUrl: chainUrl() };
    [api, indexer] = await Promise.all([startApi(settings), startIndexer(settings)]);
    worker = startWorker(settings);
  });
  afterAll(async () => {
    await Promise.all([api?.stop(), indexer?.stop(), worker?.stop()]);
    await database?.drop();
  });

  test("is 200 with every component's state once all are up", async () => {
    // The indexer first reads this file's chain from block 0: upper bound for a slow machine.
    const { status, body } = await waitFor(
      "a healthy report",
      async () => {
        const report = await health(api.url);
        return report.status === 200 && report;
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.components.database).toEqual({ ok: true });
    expect(body.components.chain).toMatchObject({ ok: true, head_block: expect.any(Number) });
    expect(body.components.indexer).toMatchObject({ ok: true, indexed_block: expect.any(Number) });
    expect(body.components.indexer.lag_blocks).toBeLessThanOrEqual(10);
    expect(body.components.worker).toMatchObject({ ok: true });
  });

  test("is 503 naming the component while one is down", async () => {
    await worker.stop();
    // The worker's heartbeat counts as gone 15 s after its last beat (a clean stop withdraws
    // it at once): four times that, for a slow machine.
    const { body } = await waitFor(
      "a degraded report",
      async () => {
        const report = await health(api.url);
        return report.status === 503 && report;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(body.status).toBe("degraded");
    expect(body.components.worker.ok).toBe(false);
    expect(body.components.database.ok).toBe(true);
    expect(body.components.indexer.ok).toBe(true);
  });
});
