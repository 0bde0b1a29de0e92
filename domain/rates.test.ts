import { describe, expect, test } from "vitest";
import { PRICE_FEEDS } from "./currencies.ts";
import {
  amountForUsdc,
  type FeedRound,
  feedAnswerDecimal,
  parseFeedAnswer,
  rateOf,
  roundProblem,
  sequencerProblem,
  usdcForAmount,
} from "./rates.ts";

const round = (answer: bigint, updatedAt = 1_000_000n, startedAt = updatedAt): FeedRound => ({
  roundId: 7n,
  answer,
  startedAt,
  updatedAt,
});
const eur = (usdPerEur: string) => round(parseFeedAnswer(usdPerEur, 8));
const usdc = (usdPerUsdc: string) => round(parseFeedAnswer(usdPerUsdc, 8));

describe("a feed's round prices a payment only while it is fresh", () => {
  const feed = PRICE_FEEDS.EUR;
  test("inside the heartbeat and its latency: usable", () => {
    expect(roundProblem(feed, round(110_000_000n, 1_000n), 1_000n + 86_400n + 60n)).toBeNull();
  });
  test("one second past: stale", () => {
    expect(roundProblem(feed, round(110_000_000n, 1_000n), 1_000n + 86_461n)).toMatch(
      /86461 s old, past its 86400 s heartbeat/,
    );
  });
  test("no round, a zero or negative answer, an incomplete or future round: refused", () => {
    expect(roundProblem(feed, null, 5n)).toMatch(/no round/);
    expect(roundProblem(feed, round(0n), 1_000_000n)).toMatch(/answers 0/);
    expect(roundProblem(feed, round(-1n), 1_000_000n)).toMatch(/answers -1/);
    expect(roundProblem(feed, round(1n, 0n), 1_000_000n)).toMatch(/not complete/);
    expect(roundProblem(feed, round(1n, 2_000_000n), 1_000_000n)).toMatch(/not complete/);
  });
});

describe("the sequencer's uptime feed", () => {
  test("up for longer than the grace period: prices may be used", () => {
    expect(sequencerProblem(round(0n, 10n, 0n), 3_600n)).toBeNull();
  });
  test("down, or back up within the hour, or unreadable: no price is used", () => {
    expect(sequencerProblem(round(1n, 10n, 0n), 100_000n)).toMatch(/down/);
    expect(sequencerProblem(round(0n, 10n, 1_000n), 4_599n)).toMatch(/3599 s, within/);
    expect(sequencerProblem(null, 1n)).toMatch(/not readable/);
  });
});

describe("conversion between a currency and USDC", () => {
  test("100.00 EUR at 1.10 USD per EUR and USDC at par: 110.00 USDC", () => {
    const rate = rateOf("EUR", { EUR: eur("1.10"), USDC: usdc("1") });
    expect(usdcForAmount(100_000_000n, rate)).toBe(110_000_000n);
    expect(amountForUsdc(110_000_000n, rate)).toBe(100_000_000n);
  });
  test("a USD invoice still reads USDC / USD: at 0.998 USD per USDC, 10 USD asks 10.020041 USDC", () => {
    const rate = rateOf("USD", { USDC: usdc("0.998") });
    expect(usdcForAmount(10_000_000n, rate)).toBe(10_020_041n);
    expect(rate.rounds.EUR).toBeUndefined();
  });
  test("what a quote asks for, converted back at the same rate, is never short of the amount", () => {
    const rates = ["1.08512345", "1.1", "0.99999999", "1.27003001", "3.33333333"];
    for (const r of rates)
      for (const amount of [1n, 999_999n, 10_000_000n, 123_456_789n, 99_999_999_999n]) {
        const rate = rateOf("GBP", { GBP: round(parseFeedAnswer(r, 8)), USDC: usdc("0.9997") });
        const asked = usdcForAmount(amount, rate);
        expect(amountForUsdc(asked, rate)).toBeGreaterThanOrEqual(amount);
        // …and one base unit less than asked is short: the quote asks for no more than needed.
        expect(amountForUsdc(asked - 1n, rate)).toBeLessThan(amount);
      }
  });
  test("a rate is missing a feed it needs: a programming error, thrown", () => {
    expect(() => rateOf("EUR", { USDC: usdc("1") })).toThrow(/EUR \/ USD/);
    expect(() => rateOf("USD", {})).toThrow(/USDC/);
  });
});

describe("feed answers as decimals", () => {
  test("both ways", () => {
    expect(feedAnswerDecimal(108_512_000n, 8)).toBe("1.08512000");
    expect(feedAnswerDecimal(1n, 0)).toBe("1");
    expect(parseFeedAnswer("1.10", 8)).toBe(110_000_000n);
    expect(parseFeedAnswer("2", 8)).toBe(200_000_000n);
    expect(() => parseFeedAnswer("1.123456789", 8)).toThrow(/more than 8/);
    expect(() => parseFeedAnswer("-1", 8)).toThrow(/not a decimal/);
    expect(() => parseFeedAnswer("1e3", 8)).toThrow(/not a decimal/);
  });
});
