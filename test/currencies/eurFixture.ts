import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll } from "vitest";
import { resetLocalFeeds, setLocalFeedRound } from "../../chain/localFeeds.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { parseFeedAnswer } from "../../domain/rates.ts";
import { chainUrl, createChain } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * For a describe block working on EUR deposit addresses without a stack: a database of its own,
 * this worker's chain, its feeds reset after each test, a new EUR-priced address per call of
 * `owner`, and `eurAt` to move the EUR / USD feed from the next block on.
 */
export function useEurFixture() {
  const url = chainUrl();
  const chain = createChain(url);
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());
  afterEach(() => resetLocalFeeds(url));
  return {
    url,
    chain,
    db: () => {
      if (!database) throw new Error("the fixture's database is made in beforeAll");
      return database.db;
    },
    owner: () => ({
      depositAddress: `0x${randomUUID().replaceAll("-", "")}00000000`,
      currency: "EUR" as const,
    }),
    eurAt: (usd: string) =>
      setLocalFeedRound(url, PRICE_FEEDS.EUR.address, { answer: parseFeedAnswer(usd, 8) }),
  };
}
