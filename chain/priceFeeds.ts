import {
  type Address,
  createPublicClient,
  type HttpTransportConfig,
  type PublicClient,
} from "viem";
import { base } from "viem/chains";
import { priceFeedAbi } from "../abis/priceFeed.ts";
import {
  type FiatCurrency,
  feedsOf,
  PRICE_FEEDS,
  SEQUENCER_UPTIME_FEED,
} from "../domain/currencies.ts";
import {
  type FeedRound,
  type Rate,
  rateOf,
  roundProblem,
  sequencerProblem,
} from "../domain/rates.ts";
import { rpcTransport } from "./rpc.ts";

/**
 * The round `address`'s feed answered at `blockNumber` (its `latestRoundData()` in that block's
 * state), or null when it answers nothing (no contract, a revert such as "No data present").
 * Reading at the payment's block, not "now", is what makes a conversion deterministic and
 * reorg-safe: the same block always gives the same round. An RPC that fails throws.
 */
export async function feedRoundAt(
  client: Pick<PublicClient, "readContract">,
  address: Address,
  blockNumber: bigint,
): Promise<FeedRound | null> {
  try {
    const [roundId, answer, startedAt, updatedAt] = await client.readContract({
      address,
      abi: priceFeedAbi,
      functionName: "latestRoundData",
      blockNumber,
    });
    return { roundId, answer, startedAt, updatedAt };
  } catch (error) {
    if (isRevert(error)) return null;
    throw error;
  }
}

/** A call the chain executed and refused (or found no code for), as opposed to a failed RPC. */
function isRevert(error: unknown): boolean {
  const names: string[] = [];
  for (let e = error as { name?: string; cause?: unknown } | undefined; e; e = e.cause as never)
    if (e.name) names.push(e.name);
  return names.some((name) =>
    ["ContractFunctionRevertedError", "ContractFunctionZeroDataError"].includes(name),
  );
}

/** A currency's rate at a block, or why there is none (a stale feed, the sequencer down…). */
export type RateAtBlock =
  | { rate: Rate; blockTime: bigint; problem?: never }
  | { problem: string; blockTime: bigint; rate?: never };

/**
 * The rate of `currency` for a payment mined in `blockNumber`: the rounds its feeds and the
 * sequencer uptime feed answered in that block, judged against that block's timestamp (not
 * Remit's clock), so every replica, replay and auditor computes the same conversion. A problem
 * is an answer, not an error: the payment waits for a block whose rounds are usable.
 *
 * The block and every round are asked for at once, and judged afterwards in the same order as
 * ever (the sequencer first, then each feed): through a reader that batches (createFeedReader)
 * that is one round trip to the RPC instead of four one after another, which a reconcile waits
 * for inside its transaction (docs/benchmarks.md, "Conversion at detection").
 */
export async function rateAtBlock(
  client: Pick<PublicClient, "readContract"> & {
    getBlock(args: { blockNumber: bigint }): Promise<{ timestamp: bigint }>;
  },
  currency: FiatCurrency,
  blockNumber: bigint,
): Promise<RateAtBlock> {
  const feeds = feedsOf(currency);
  const [block, sequencer, ...feedRounds] = await Promise.all([
    client.getBlock({ blockNumber }),
    feedRoundAt(client, SEQUENCER_UPTIME_FEED.address, blockNumber),
    ...feeds.map((name) => feedRoundAt(client, PRICE_FEEDS[name].address, blockNumber)),
  ]);
  const blockTime = block.timestamp;
  const down = sequencerProblem(sequencer, blockTime);
  if (down) return { problem: down, blockTime };
  const rounds: Rate["rounds"] = {};
  for (const [i, name] of feeds.entries()) {
    const feed = PRICE_FEEDS[name];
    const round = feedRounds[i] ?? null;
    const problem = roundProblem(feed, round, blockTime);
    if (problem || !round) return { problem: problem ?? `${feed.pair}: no round`, blockTime };
    rounds[name] = round;
  }
  return { rate: rateOf(currency, rounds), blockTime };
}

/** What reads the price feeds: rateAtBlock's calls, and the head (a quote reads the latest block). */
export type FeedClient = Parameters<typeof rateAtBlock>[0] & { getBlockNumber(): Promise<bigint> };

/**
 * A reader of the price feeds at `rpcUrl` (one URL or a comma-separated list, chain/rpc.ts)
 * whose calls made in one tick go as one JSON-RPC batch: rateAtBlock's block and rounds in one
 * round trip. Nothing cached (`cacheTime: 0`): the head is the head now, never a block number up
 * to 4 s old whose rate a feed gone stale since would still give. Its own client, so the
 * batching changes no other call (a relayer's submission stays a request of its own).
 * `retryCount` as rpcTransport's; `onFetchRequest` sees each HTTP request (a test counts them).
 */
export function createFeedReader(
  rpcUrl: string,
  options: Pick<HttpTransportConfig, "retryCount" | "onFetchRequest"> = {},
): FeedClient {
  return createPublicClient({
    chain: base,
    transport: rpcTransport(rpcUrl, { ...options, batch: true }),
    cacheTime: 0,
  });
}

/** A usable rate and the block it was read at. */
export type UsableRate = { rate: Rate; blockTime: bigint; blockNumber: bigint };

/**
 * The rate for a payment mined in `paymentBlock` whose own block gives none (a stale feed, the
 * sequencer down or in its grace period): the rate at the first block after it, up to `head`,
 * where the rate is usable — the first fresh round, as Chainlink's guidance has it. Found by
 * halving [paymentBlock, head], which assumes one outage between them (usable from some block
 * on); what it answers is a block that is usable and whose predecessor is not, so a stored
 * conversion names a block anyone can check. Null while no block up to `head` is usable.
 */
export async function firstUsableRate(
  client: Parameters<typeof rateAtBlock>[0],
  currency: FiatCurrency,
  paymentBlock: bigint,
  head: bigint,
): Promise<UsableRate | null> {
  const atPayment = await rateAtBlock(client, currency, paymentBlock);
  if (atPayment.rate) return { ...atPayment, blockNumber: paymentBlock };
  if (head <= paymentBlock) return null;
  const atHead = await rateAtBlock(client, currency, head);
  if (!atHead.rate) return null;
  // Invariant: unusable at `low`, usable at `high` (found: the rate there).
  let low = paymentBlock;
  let found: UsableRate = { ...atHead, blockNumber: head };
  while (found.blockNumber - low > 1n) {
    const middle = low + (found.blockNumber - low) / 2n;
    const at = await rateAtBlock(client, currency, middle);
    if (at.rate) found = { ...at, blockNumber: middle };
    else low = middle;
  }
  return found;
}
