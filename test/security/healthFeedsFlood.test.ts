import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HealthReport } from "../../api/health.ts";
import { PRICE_FEEDS, SEQUENCER_UPTIME_FEED } from "../../domain/currencies.ts";
import { waitFor } from "../../internal/process.ts";
import { chainUrl } from "../helpers/chain.ts";
import { type RpcCall, startCountingRpc } from "../helpers/countingRpc.ts";
import { parseMetrics } from "../helpers/prometheus.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/**
 * The attack: `GET /health` is public and needs no key, and its `rates` (api/feedHealth.ts) read
 * the price feeds from the chain: the latest block and each feed's `latestRoundData`, five RPC
 * calls. Read for each request, a flood of /health was a flood of calls on the operator's
 * metered RPC, and more so while that RPC failed. Now one reading (`sharedFeedsReading`) serves
 * every /health and /metrics of the process for 15 s, a failed reading too.
 *
 * /metrics reports the feeds' ages from the same reading but is not public: it is operational
 * (this machine or OPS_TOKEN, test/security/operationalEndpointsOnTheNetwork.test.ts). In the
 * flood a stranger's scrape (through a proxy: X-Forwarded-For) is refused before anything is
 * read, and the operator's own scrapes share the reading.
 *
 * The API runs as `npm start` runs it, its RPC a counting proxy in front of this worker's anvil.
 * No clock is moved and nothing sleeps: readings at least 15 s apart, all begun during a flood
 * that lasted E ms, number at most 1 + ⌊E / 15 s⌋, however slow the machine; without the sharing
 * they number one per request.
 */
const FEEDS_WINDOW_MS = 15_000;
/** What an RPC out of credit answers; the proxy answers the feeds' calls so in the second test. */
const OUT_OF_CREDIT = "daily request limit reached";

const FEED_ADDRESSES = new Set(
  [SEQUENCER_UPTIME_FEED.address, ...Object.values(PRICE_FEEDS).map((feed) => feed.address)].map(
    (address) => address.toLowerCase(),
  ),
);
const calledFeed = (call: RpcCall) =>
  call.method === "eth_call"
    ? String((call.params[0] as { to?: unknown } | undefined)?.to).toLowerCase()
    : undefined;
/** A call a reading of the feeds makes: `latestRoundData` of a price feed or of the sequencer's. */
const isFeedCall = (call: RpcCall) => FEED_ADDRESSES.has(calledFeed(call) ?? "");
/** One per reading: its call of the sequencer uptime feed. */
const isReading = (call: RpcCall) =>
  calledFeed(call) === SEQUENCER_UPTIME_FEED.address.toLowerCase();

/** The readings a flood begun at `started` may cost: one per 15 s window it reached. */
const windowsSince = (started: number) => 1 + Math.floor((Date.now() - started) / FEEDS_WINDOW_MS);

type Hit = { path: "/health" | "/metrics"; stranger: boolean };
/**
 * The flood's requests, in turn: /health from this machine and from a stranger through a proxy,
 * /metrics from the operator here and from that stranger (refused).
 */
const HITS: Hit[] = [
  { path: "/health", stranger: false },
  { path: "/health", stranger: true },
  { path: "/metrics", stranger: true },
  { path: "/health", stranger: false },
  { path: "/metrics", stranger: false },
];
const FLOOD = 60;

describe("attack: a flood of /health reading the price feeds on the operator's RPC", () => {
  let stack: TestStack;
  let rpc: Awaited<ReturnType<typeof startCountingRpc>>;

  beforeAll(async () => {
    rpc = await startCountingRpc(chainUrl());
    stack = await startStack({ rpcUrl: rpc.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.stop();
  });

  const hit = async (i: number) => {
    const { path, stranger } = HITS[i % HITS.length] as Hit;
    const response = await stack.request(path, {
      headers: stranger ? { "X-Forwarded-For": "203.0.113.9" } : {},
    });
    return { path, stranger, status: response.status, body: await response.text() };
  };

  /** A concurrent burst, then as many requests one after the other. */
  const flood = async () => {
    const answers = await Promise.all(Array.from({ length: FLOOD }, (_, i) => hit(i)));
    for (let i = 0; i < FLOOD; i++) answers.push(await hit(i));
    return answers;
  };

  /**
   * Each answer served from a reading: /health's `rates` as `expectRates` says, the operator's
   * /metrics with one age per feed (`finite`: a number, not NaN), a stranger's /metrics refused.
   */
  const expectServed = (
    answers: Awaited<ReturnType<typeof hit>>[],
    expectRates: (rates: HealthReport["rates"]) => void,
    finite: boolean,
  ) => {
    for (const answer of answers) {
      if (answer.path === "/health") {
        expect([200, 503]).toContain(answer.status);
        expectRates((JSON.parse(answer.body) as HealthReport).rates);
      } else if (answer.stranger) {
        expect(answer.status).toBe(401);
        expect(answer.body).not.toMatch(/remit_/);
      } else {
        expect(answer.status).toBe(200);
        const ages = parseMetrics(answer.body).filter(
          (sample) => sample.name === "remit_price_feed_age_seconds",
        );
        expect(ages.map((sample) => sample.labels.feed).sort()).toEqual(["EUR", "GBP", "USDC"]);
        for (const age of ages) expect(Number.isFinite(age.value)).toBe(finite);
      }
    }
  };

  test("concurrent and repeated requests cost the RPC one reading of the feeds per 15 s", async () => {
    // The proxy sees the readings: the API's first /health, at its start, made one.
    expect(rpc.calls(isReading)).toBeGreaterThanOrEqual(1);
    const readings = rpc.calls(isReading);
    const feedCalls = rpc.calls(isFeedCall);
    const started = Date.now();

    const answers = await flood();

    const windows = windowsSince(started);
    expect(rpc.calls(isReading) - readings).toBeLessThanOrEqual(windows);
    expect(rpc.calls(isFeedCall) - feedCalls).toBeLessThanOrEqual(windows * FEED_ADDRESSES.size);
    expectServed(answers, (rates) => expect(rates).toHaveProperty("feeds"), true);
  });

  test("a reading the RPC refuses is shared as well: a flood while it fails costs no more", async () => {
    rpc.refuse((call) => (isFeedCall(call) ? OUT_OF_CREDIT : undefined));
    const readings = rpc.calls(isReading);
    const started = Date.now();
    try {
      // The good reading of the test above serves the rest of its window; the next one is
      // refused. Waiting for it is a flood too: a /health every 100 ms.
      await waitFor(
        "a /health reporting the refused reading",
        async () => {
          const { rates } = (await (await stack.request("/health")).json()) as HealthReport;
          return rates.ok === false && String(rates.error).includes(OUT_OF_CREDIT);
        },
        { timeoutMs: EVENT_MS, intervalMs: 100 },
      );

      const answers = await flood();

      const windows = windowsSince(started);
      expect(rpc.calls(isReading) - readings).toBeGreaterThanOrEqual(1);
      expect(rpc.calls(isReading) - readings).toBeLessThanOrEqual(windows);
      expectServed(
        answers,
        (rates) =>
          expect(rates).toMatchObject({ ok: false, error: expect.stringContaining(OUT_OF_CREDIT) }),
        false,
      );
    } finally {
      rpc.refuse(undefined);
    }
  });
});
