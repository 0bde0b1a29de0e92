import { describe, expect, test } from "vitest";
import { quoteAmountDue } from "../../app/payments/quoteAmountDue.ts";
import { setLocalFeedRound } from "../../chain/localFeeds.ts";
import { quotesOf } from "../../db/queries/rates.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { DEFAULT_QUOTE_WINDOW_MS } from "../../domain/currencyPayments.ts";
import { parseFeedAnswer } from "../../domain/rates.ts";
import { useEurFixture } from "./eurFixture.ts";

/**
 * Quotes for an EUR deposit address against the real database and the local chain's feeds: what
 * a page asks a payer to send, held for its window, new once it lapses, none on a stale feed.
 */
describe("quoting what an EUR invoice's payer sends", () => {
  const { url, chain, db, owner, eurAt } = useEurFixture();

  test("a quote at the latest block's rate, the same one on every reload inside its window, a new one after", async () => {
    const address = owner();
    await eurAt("1.10");
    const now = new Date();
    const first = await quoteAmountDue(db(), chain.client, address, 100_000_000n, now);
    expect(first).toMatchObject({ reused: false, quote: { amountDueUsdc: 110_000_000n } });
    expect(first.quote?.expiresAt.getTime()).toBe(now.getTime() + DEFAULT_QUOTE_WINDOW_MS);

    // The rate moves; a reload ten minutes on is shown the same quote.
    await eurAt("1.20");
    const later = new Date(now.getTime() + 10 * 60_000);
    const again = await quoteAmountDue(db(), chain.client, address, 100_000_000n, later);
    expect(again).toEqual({ quote: first.quote, reused: true, at: later });

    // With less than two minutes left it is not offered again: a new quote, at the new rate.
    const lapsing = new Date(now.getTime() + 14 * 60_000);
    const renewed = await quoteAmountDue(db(), chain.client, address, 100_000_000n, lapsing);
    expect(renewed).toMatchObject({ reused: false, quote: { amountDueUsdc: 120_000_000n } });
    expect((await quotesOf(db(), address.depositAddress)).length).toBe(2);

    // Another amount due (a partial payment arrived): its own quote.
    const rest = await quoteAmountDue(db(), chain.client, address, 40_000_000n, lapsing);
    expect(rest).toMatchObject({ reused: false, quote: { amountDueUsdc: 48_000_000n } });
  });

  test("no usable rate at the latest block: nothing is asked nor stored, and the reason is given", async () => {
    const address = owner();
    const block = await chain.client.getBlock();
    await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, {
      answer: parseFeedAnswer("1.10", 8),
      startedAt: block.timestamp - 172_800n,
      updatedAt: block.timestamp - 172_800n,
    });
    const answer = await quoteAmountDue(db(), chain.client, address, 100_000_000n, new Date());
    expect(answer.unavailable).toMatch(/EUR \/ USD: round \d+ is \d+ s old/);
    expect(await quotesOf(db(), address.depositAddress)).toEqual([]);
  });
});
