import { afterEach, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { feedRoundAt } from "../../chain/priceFeeds.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { chainUrl, createChain } from "../helpers/chain.ts";
import { runCli } from "./run.ts";

describe("remit dev rate", () => {
  const url = chainUrl();
  const chain = createChain(url);
  afterEach(() => resetLocalFeeds(url));

  test("moves the local EUR / USD feed from the block it answers on", async () => {
    const before = await chain.client.getBlockNumber();
    const result = await runCli(["dev", "rate", "eur", "1.10", "--rpc-url", url, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const moved = JSON.parse(result.stdout) as Record<string, string>;
    expect(moved).toMatchObject({
      feed: "EUR / USD",
      address: PRICE_FEEDS.EUR.address,
      answer: "1.10000000",
    });
    const block = BigInt(moved.block_number ?? "0");
    expect(block).toBeGreaterThan(before);
    const round = await feedRoundAt(chain.client, PRICE_FEEDS.EUR.address, block);
    expect(round).toMatchObject({ answer: 110_000_000n, roundId: BigInt(moved.round_id ?? "") });
    expect((await feedRoundAt(chain.client, PRICE_FEEDS.EUR.address, before))?.answer).not.toBe(
      110_000_000n,
    );
  });

  test("an unknown feed, a rate that is not a positive decimal: a usage error, nothing written", async () => {
    const head = await chain.client.getBlockNumber();
    for (const args of [
      ["JPY", "0.0067"],
      ["EUR", "-1"],
      ["EUR", "0"],
      ["EUR", "1.123456789"],
    ]) {
      const result = await runCli(["dev", "rate", ...args, "--rpc-url", url]);
      expect(result.code, args.join(" ")).toBe(64);
      expect(result.stderr).toMatch(/<feed>|<usd>/);
    }
    expect(await chain.client.getBlockNumber()).toBe(head);
  });
});
