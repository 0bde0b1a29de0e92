import { decodeFunctionResult, encodeFunctionData, type Hex } from "viem";
import { priceFeedAbi } from "../abis/priceFeed.ts";
import { rpcRequestAny } from "../chain/rpc.ts";
import { type FeedName, PRICE_FEEDS, SEQUENCER_UPTIME_FEED } from "../domain/currencies.ts";
import { type FeedRound, roundProblem, sequencerProblem } from "../domain/rates.ts";

/** The price feeds as the chain's latest block sees them. */
export type FeedsReading = {
  blockTime: bigint;
  rounds: Record<FeedName, FeedRound | null>;
  sequencer: FeedRound | null;
};

/** One reading serves /health and the metrics this long: feeds move in minutes, not seconds. */
const FEEDS_READING_TTL_MS = 15_000;
const READ_TIMEOUT_MS = 2_000;

const LATEST_ROUND_DATA = encodeFunctionData({
  abi: priceFeedAbi,
  functionName: "latestRoundData",
});

/** A feed's latest round at the latest block; null when it answers nothing (no contract, a revert). */
async function latestRound(rpcUrl: string, address: string): Promise<FeedRound | null> {
  let data: Hex;
  try {
    data = await rpcRequestAny<Hex>(rpcUrl, "eth_call", [
      { to: address, data: LATEST_ROUND_DATA },
      "latest",
    ]);
  } catch (error) {
    // A revert is the feed's answer (no round); an RPC that does not answer is not.
    if (/revert/i.test(error instanceof Error ? error.message : String(error))) return null;
    throw error;
  }
  if (data === "0x") return null;
  const [roundId, answer, startedAt, updatedAt] = decodeFunctionResult({
    abi: priceFeedAbi,
    functionName: "latestRoundData",
    data,
  });
  return { roundId, answer, startedAt, updatedAt };
}

const timeout = <T>(promise: Promise<T>): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(
        () => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)),
        READ_TIMEOUT_MS,
      ),
    ),
  ]);

/** Reads every feed's latest round and the latest block's time, each call in parallel. */
export async function readFeeds(rpcUrl: string): Promise<FeedsReading> {
  const names = Object.keys(PRICE_FEEDS) as FeedName[];
  const [block, sequencer, ...rounds] = await timeout(
    Promise.all([
      rpcRequestAny<{ timestamp: Hex }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]),
      latestRound(rpcUrl, SEQUENCER_UPTIME_FEED.address),
      ...names.map((name) => latestRound(rpcUrl, PRICE_FEEDS[name].address)),
    ]),
  );
  return {
    blockTime: BigInt(block.timestamp),
    sequencer,
    rounds: Object.fromEntries(names.map((name, i) => [name, rounds[i] ?? null])) as Record<
      FeedName,
      FeedRound | null
    >,
  };
}

const readings = new Map<string, { at: number; reading: Promise<FeedsReading> }>();

/**
 * readFeeds, shared for FEEDS_READING_TTL_MS by every caller in this process (a flood of
 * /health requests or scrapes costs the RPC one reading every 15 s).
 */
export function sharedFeedsReading(rpcUrl: string): Promise<FeedsReading> {
  const now = Date.now();
  const cached = readings.get(rpcUrl);
  if (cached && now - cached.at < FEEDS_READING_TTL_MS) return cached.reading;
  const reading = readFeeds(rpcUrl);
  reading.catch(() => {});
  readings.set(rpcUrl, { at: now, reading });
  return reading;
}

/** How old each feed's latest round is at the latest block, in seconds; null: no round. */
export function feedAges(reading: FeedsReading): Record<FeedName, number | null> {
  return Object.fromEntries(
    Object.entries(reading.rounds).map(([name, round]) => [
      name,
      round && round.updatedAt > 0n ? Number(reading.blockTime - round.updatedAt) : null,
    ]),
  ) as Record<FeedName, number | null>;
}

/**
 * The feeds' part of /health: each feed's round age and whether a payment mined now could be
 * converted (domain/rates.ts: fresh within its heartbeat, the sequencer up past its grace
 * period). `ok: false` names the first problem; invoices priced in a currency wait for a rate
 * meanwhile, those in USDC are not concerned.
 */
export function feedsReport(reading: FeedsReading): { ok: boolean; [detail: string]: unknown } {
  const ages = feedAges(reading);
  const problems = [
    sequencerProblem(reading.sequencer, reading.blockTime),
    ...(Object.keys(PRICE_FEEDS) as FeedName[]).map((name) =>
      roundProblem(PRICE_FEEDS[name], reading.rounds[name], reading.blockTime),
    ),
  ].filter((problem): problem is string => problem !== null);
  return {
    ok: problems.length === 0,
    feeds: Object.fromEntries(
      (Object.keys(PRICE_FEEDS) as FeedName[]).map((name) => [
        name,
        {
          round_age_seconds: ages[name],
          fresh: roundProblem(PRICE_FEEDS[name], reading.rounds[name], reading.blockTime) === null,
        },
      ]),
    ),
    sequencer_up: reading.sequencer !== null && reading.sequencer.answer === 0n,
    ...(problems.length ? { error: problems.join("; ") } : {}),
  };
}
