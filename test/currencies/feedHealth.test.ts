import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HealthReport } from "../../api/health.ts";
import { setLocalFeedRound } from "../../chain/localFeeds.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { waitFor } from "../../internal/process.ts";
import { useChainForFile } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { startApi, type TestProcess } from "../helpers/processes.ts";
import { parseMetrics } from "../helpers/prometheus.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/**
 * The price feeds' age in /health and /metrics, read from the local chain's feeds: fresh after
 * start, and a stale EUR round named within the 15 s the reading is shared for.
 */
describe("the price feeds in /health and /metrics", () => {
  const chain = useChainForFile();
  let database: TestDatabase;
  let api: TestProcess & { url: string };

  beforeAll(async () => {
    await chain.snapshot();
    database = await createTestDatabase();
    api = await startApi({ databaseUrl: database.url, rpcUrl: chain.url });
  });
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
    await chain.revert();
  });

  const rates = async () =>
    ((await (await fetch(`${api.url}/health`)).json()) as HealthReport).rates;
  const feedAges = async () =>
    parseMetrics(await (await fetch(`${api.url}/metrics`)).text()).filter(
      (sample) => sample.name === "remit_price_feed_age_seconds",
    );

  test("fresh feeds: every round's age, all usable, and the same ages in the metrics", async () => {
    const report = await rates();
    expect(report).toMatchObject({
      ok: true,
      sequencer_up: true,
      feeds: {
        EUR: { fresh: true, round_age_seconds: expect.any(Number) },
        GBP: { fresh: true, round_age_seconds: expect.any(Number) },
        USDC: { fresh: true, round_age_seconds: expect.any(Number) },
      },
    });
    const samples = await feedAges();
    expect(samples.map((s) => s.labels.feed).sort()).toEqual(["EUR", "GBP", "USDC"]);
    for (const sample of samples) expect(sample.value).toBeGreaterThanOrEqual(0);
  });

  test("a stale EUR round is named, without turning the service's status", async () => {
    const now = await chain.client.getBlock();
    await setLocalFeedRound(chain.url, PRICE_FEEDS.EUR.address, {
      answer: 110_000_000n,
      startedAt: now.timestamp - 172_800n,
      updatedAt: now.timestamp - 172_800n,
    });
    const report = await waitFor(
      "the stale round in /health",
      async () => {
        const read = await rates();
        return read.ok === false ? read : undefined;
      },
      { timeoutMs: EVENT_MS, intervalMs: 250 },
    );
    expect(report.error).toMatch(/EUR \/ USD: round \d+ is \d+ s old, past its 86400 s heartbeat/);
    expect(report.feeds).toMatchObject({ EUR: { fresh: false }, GBP: { fresh: true } });
    const eur = (await feedAges()).find((s) => s.labels.feed === "EUR");
    expect(eur?.value).toBeGreaterThanOrEqual(172_800);
  });
});
