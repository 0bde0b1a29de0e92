import type { Address } from "viem";
import { afterEach, describe, expect, test } from "vitest";
import { priceFeedAbi } from "../abis/priceFeed.ts";
import { PRICE_FEEDS, SEQUENCER_UPTIME_FEED } from "../domain/currencies.ts";
import {
  amountForUsdc,
  parseFeedAnswer,
  roundProblem,
  sequencerProblem,
  usdcForAmount,
} from "../domain/rates.ts";
import { localFeedArtifactSource } from "../scripts/compile-local-feed.ts";
import { chainUrl, createChain } from "../test/helpers/chain.ts";
import {
  LOCAL_START_RATES,
  refreshStaleLocalFeeds,
  resetLocalFeeds,
  setLocalFeedRound,
} from "./localFeeds.ts";
import { localPriceFeedRuntimeCode } from "./localPriceFeedArtifact.ts";
import { createFeedReader, feedRoundAt, firstUsableRate, rateAtBlock } from "./priceFeeds.ts";
import { rpcRequest } from "./rpc.ts";

describe("the local chain's price feeds", () => {
  const url = chainUrl();
  const chain = createChain(url);
  // Every feed back to a new chain's rounds, for whichever test runs next on this chain.
  afterEach(() => resetLocalFeeds(url));

  test("a round older than half its heartbeat is posted again at the same price; a fresh one and a rate someone set stay", async () => {
    const head = await chain.client.getBlock();
    // EUR last posted 13 hours ago at 1.2345 (its heartbeat is 24 h); GBP fresh.
    await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, {
      answer: parseFeedAnswer("1.2345", 8),
      startedAt: head.timestamp - 13n * 3600n,
      updatedAt: head.timestamp - 13n * 3600n,
    });
    expect(await refreshStaleLocalFeeds(url)).toEqual(["EUR"]);
    const now = await chain.client.getBlock();
    const eur = await feedRoundAt(chain.client, PRICE_FEEDS.EUR.address, now.number);
    expect(eur?.answer).toBe(parseFeedAnswer("1.2345", 8));
    expect(roundProblem(PRICE_FEEDS.EUR, eur, now.timestamp)).toBeNull();
    expect(now.timestamp - (eur?.updatedAt ?? 0n)).toBeLessThan(60n);
    // Nothing is stale any more: a second look renews nothing.
    expect(await refreshStaleLocalFeeds(url)).toEqual([]);
  });

  test("stand at Base's canonical feed addresses, answering AggregatorV3Interface with a usable round", async () => {
    const block = await chain.client.getBlock();
    for (const [name, feed] of Object.entries(PRICE_FEEDS)) {
      const decimals = await chain.client.readContract({
        address: feed.address,
        abi: priceFeedAbi,
        functionName: "decimals",
      });
      expect(decimals).toBe(feed.decimals);
      const round = await feedRoundAt(chain.client, feed.address, block.number);
      expect(round?.answer).toBeGreaterThan(0n);
      expect(roundProblem(feed, round, block.timestamp)).toBeNull();
      if (name === "EUR") expect(round?.answer).toBe(parseFeedAnswer(LOCAL_START_RATES.EUR, 8));
    }
    const sequencer = await feedRoundAt(chain.client, SEQUENCER_UPTIME_FEED.address, block.number);
    expect(sequencerProblem(sequencer, block.timestamp)).toBeNull();
  });

  test("a rate moved from one block on: the block before reads the old round, the block after the new", async () => {
    const feed = PRICE_FEEDS.GBP;
    const before = await chain.client.getBlockNumber();
    const old = await feedRoundAt(chain.client, feed.address, before);
    const moved = await setLocalFeedRound(url, feed.address, { answer: 131_000_000n });
    expect(moved.blockNumber).toBeGreaterThan(before);
    expect((await feedRoundAt(chain.client, feed.address, before))?.answer).toBe(old?.answer);
    const now = await feedRoundAt(chain.client, feed.address, moved.blockNumber);
    expect(now).toMatchObject({ answer: 131_000_000n, roundId: moved.roundId });
    expect(moved.roundId).toBe((old?.roundId ?? 0n) + 1n);
  });

  test("a stale round and a sequencer outage are readable as such", async () => {
    const block = await chain.client.getBlock();
    const stale = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, {
      answer: 110_000_000n,
      startedAt: block.timestamp - 90_000n,
      updatedAt: block.timestamp - 90_000n,
    });
    const staleBlock = await chain.client.getBlock({ blockNumber: stale.blockNumber });
    const round = await feedRoundAt(chain.client, PRICE_FEEDS.EUR.address, stale.blockNumber);
    expect(roundProblem(PRICE_FEEDS.EUR, round, staleBlock.timestamp)).toMatch(/heartbeat/);

    const down = await setLocalFeedRound(url, SEQUENCER_UPTIME_FEED.address, { answer: 1n });
    const downBlock = await chain.client.getBlock({ blockNumber: down.blockNumber });
    const status = await feedRoundAt(chain.client, SEQUENCER_UPTIME_FEED.address, down.blockNumber);
    expect(sequencerProblem(status, downBlock.timestamp)).toMatch(/down/);
    // Back up now: still refused for the grace period.
    const up = await setLocalFeedRound(url, SEQUENCER_UPTIME_FEED.address, { answer: 0n });
    const upBlock = await chain.client.getBlock({ blockNumber: up.blockNumber });
    const back = await feedRoundAt(chain.client, SEQUENCER_UPTIME_FEED.address, up.blockNumber);
    expect(sequencerProblem(back, upBlock.timestamp)).toMatch(/grace period/);
    // Every feed back to a new chain's rounds, for whichever test runs next on this chain.
    await resetLocalFeeds(url);
    const after = await chain.client.getBlock();
    for (const feed of Object.values(PRICE_FEEDS))
      expect(
        roundProblem(
          feed,
          await feedRoundAt(chain.client, feed.address, after.number),
          after.timestamp,
        ),
      ).toBeNull();
    const sequencer = await feedRoundAt(chain.client, SEQUENCER_UPTIME_FEED.address, after.number);
    expect(sequencerProblem(sequencer, after.timestamp)).toBeNull();
  });

  test("a feed address without a feed reads as no round; a real chain's feed is never written", async () => {
    const empty = "0x000000000000000000000000000000000000dEaD";
    expect(await feedRoundAt(chain.client, empty, await chain.client.getBlockNumber())).toBeNull();
    await expect(setLocalFeedRound(url, empty, { answer: 1n })).rejects.toThrow(
      /not Remit's local simulated chain/,
    );
  });

  test("the committed runtime code is what solc makes of chain/contracts/LocalPriceFeed.sol", async () => {
    const source = await localFeedArtifactSource();
    expect(source).toContain(localPriceFeedRuntimeCode);
  });

  test("a currency's rate at a block: its feed and USDC's, that block's rounds, judged at that block's time", async () => {
    await setLocalFeedRound(url, PRICE_FEEDS.USDC.address, { answer: 99_800_000n });
    const first = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, { answer: 110_000_000n });
    const second = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, { answer: 120_000_000n });
    const atFirst = await rateAtBlock(chain.client, "EUR", first.blockNumber);
    const atSecond = await rateAtBlock(chain.client, "EUR", second.blockNumber);
    // 100 EUR at 1.10 USD/EUR with USDC at 0.998 USD: 110.220441 USDC (rounded up).
    expect(atFirst.rate && usdcForAmount(100_000_000n, atFirst.rate)).toBe(110_220_441n);
    expect(atSecond.rate && usdcForAmount(100_000_000n, atSecond.rate)).toBe(120_240_481n);
    // The same block read again gives the same rate (a replay converts the same way).
    const again = await rateAtBlock(chain.client, "EUR", first.blockNumber);
    expect(again.rate && amountForUsdc(110_220_441n, again.rate)).toBe(100_000_000n);
    // USD reads USDC / USD alone.
    const usd = await rateAtBlock(chain.client, "USD", second.blockNumber);
    expect(Object.keys(usd.rate?.rounds ?? {})).toEqual(["USDC"]);

    const down = await setLocalFeedRound(url, SEQUENCER_UPTIME_FEED.address, { answer: 1n });
    expect(await rateAtBlock(chain.client, "GBP", down.blockNumber)).toMatchObject({
      problem: "the Base sequencer is down",
    });
    expect((await rateAtBlock(chain.client, "GBP", second.blockNumber)).rate).toBeDefined();
  });

  test("the feed reader asks for a rate in one round trip and reads what one call at a time does", async () => {
    let requests = 0;
    const reader = createFeedReader(url, { onFetchRequest: () => void requests++ });
    const moved = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, { answer: 110_000_000n });
    // The block and its three rounds (the sequencer, EUR / USD, USDC / USD): one HTTP request.
    const batched = await rateAtBlock(reader, "EUR", moved.blockNumber);
    expect(requests).toBe(1);
    expect(batched.rate?.rounds.EUR?.answer).toBe(110_000_000n);
    expect(batched).toEqual(await rateAtBlock(chain.client, "EUR", moved.blockNumber));
    // A sequencer outage is refused through the batch as through single calls.
    const down = await setLocalFeedRound(url, SEQUENCER_UPTIME_FEED.address, { answer: 1n });
    expect(await rateAtBlock(reader, "GBP", down.blockNumber)).toMatchObject({
      problem: "the Base sequencer is down",
    });
    // In one batch, an address without code and a feed with no round yet (its call reverts,
    // "No data present") read as no round, beside a feed that answers.
    const empty = "0x000000000000000000000000000000000000dEaD";
    const unset = "0x000000000000000000000000000000000000bEEF";
    await chain.client.setCode({ address: unset, bytecode: localPriceFeedRuntimeCode });
    const head = await chain.client.getBlockNumber();
    requests = 0;
    const [none, reverted, gbp] = await Promise.all(
      [empty, unset, PRICE_FEEDS.GBP.address].map((address) =>
        feedRoundAt(reader, address as Address, head),
      ),
    );
    expect(requests).toBe(1);
    expect([none, reverted]).toEqual([null, null]);
    expect(gbp?.answer).toBe(parseFeedAnswer(LOCAL_START_RATES.GBP, 8));
    // An RPC that does not answer is an error, not a missing rate: the reconcile is retried.
    const nowhere = createFeedReader("http://127.0.0.1:9", { retryCount: 0 });
    await expect(rateAtBlock(nowhere, "EUR", head)).rejects.toThrow();
  });

  test("a payment in a block with a stale feed converts at the first fresh round after it, not before", async () => {
    const block = await chain.client.getBlock();
    const stale = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, {
      answer: 110_000_000n,
      startedAt: block.timestamp - 90_000n,
      updatedAt: block.timestamp - 90_000n,
    });
    await rpcRequest(url, "anvil_mine", ["0x5"]);
    const staleHead = await chain.client.getBlockNumber();
    // No usable block up to the head yet: the payment waits.
    expect(await firstUsableRate(chain.client, "EUR", stale.blockNumber, staleHead)).toBeNull();
    const fresh = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, { answer: 125_000_000n });
    await rpcRequest(url, "anvil_mine", ["0x7"]);
    const head = await chain.client.getBlockNumber();
    const found = await firstUsableRate(chain.client, "EUR", stale.blockNumber, head);
    expect(found?.blockNumber).toBe(fresh.blockNumber);
    expect(found?.rate.rounds.EUR?.answer).toBe(125_000_000n);
    // A payment in a block with a usable rate converts at its own block.
    const own = await firstUsableRate(chain.client, "EUR", fresh.blockNumber + 2n, head);
    expect(own?.blockNumber).toBe(fresh.blockNumber + 2n);
  });
});
