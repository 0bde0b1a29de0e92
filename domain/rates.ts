import {
  type FiatCurrency,
  feedsOf,
  PRICE_FEEDS,
  type PriceFeed,
  SEQUENCER_GRACE_SECONDS,
} from "./currencies.ts";

/** One round of a Chainlink feed, as `latestRoundData()` answers it at some block. */
export type FeedRound = {
  roundId: bigint;
  answer: bigint;
  startedAt: bigint;
  updatedAt: bigint;
};

/**
 * How late a round may be beyond its feed's heartbeat: Chainlink's nodes start a round when the
 * heartbeat is reached, and it can take about 40 s to be mined (docs.chain.link, "Data Feeds",
 * heartbeat latency). A minute of room, no more: an older round is stale.
 */
export const HEARTBEAT_LATENCY_SECONDS = 60n;

/**
 * Why `round` of `feed` cannot price a payment mined at `blockTime` (seconds), or null when it
 * can: no round, a non-positive answer, a round not yet complete or dated after the block, or a
 * round older than the feed's heartbeat (the feed stopped; its last price is not today's).
 */
export function roundProblem(
  feed: Pick<PriceFeed, "pair" | "heartbeatSeconds">,
  round: FeedRound | null,
  blockTime: bigint,
): string | null {
  if (!round) return `${feed.pair}: no round is readable`;
  if (round.answer <= 0n) return `${feed.pair}: round ${round.roundId} answers ${round.answer}`;
  if (round.updatedAt === 0n || round.updatedAt > blockTime)
    return `${feed.pair}: round ${round.roundId} is not complete at this block`;
  const age = blockTime - round.updatedAt;
  if (age > BigInt(feed.heartbeatSeconds) + HEARTBEAT_LATENCY_SECONDS)
    return `${feed.pair}: round ${round.roundId} is ${age} s old, past its ${feed.heartbeatSeconds} s heartbeat`;
  return null;
}

/**
 * Why the L2 sequencer's status (its uptime feed's round) forbids using any price at
 * `blockTime`, or null: the sequencer is down, or came back up less than the grace period ago
 * (rounds could not be posted while it was down, so the prices it left are not current).
 */
export function sequencerProblem(status: FeedRound | null, blockTime: bigint): string | null {
  if (!status) return "the sequencer uptime feed is not readable";
  if (status.answer !== 0n) return "the Base sequencer is down";
  const up = blockTime - status.startedAt;
  if (up < BigInt(SEQUENCER_GRACE_SECONDS))
    return `the Base sequencer has been up for ${up} s, within the ${SEQUENCER_GRACE_SECONDS} s grace period`;
  return null;
}

/**
 * A conversion between a currency and USDC: USDC base units per base unit of the currency, as
 * an exact fraction of the feeds' integers (never a float). Both sides count 6 decimals, so the
 * fraction is (USD per unit of the currency) ÷ (USD per USDC).
 */
export type Rate = {
  currency: FiatCurrency;
  /** USDC per unit of the currency = numerator / denominator. */
  numerator: bigint;
  denominator: bigint;
  /** The rounds it came from, by feed (USDC / USD always; the currency's own unless USD). */
  rounds: Partial<Record<keyof typeof PRICE_FEEDS, FeedRound>>;
};

/** The exact fraction of a rate alone: USDC per unit of the currency. */
export type Ratio = Pick<Rate, "numerator" | "denominator">;

/**
 * The rate of `currency` from its feeds' rounds (`rounds` must hold each of `feedsOf(currency)`,
 * checked by `roundProblem` first). USD is one USD: only USDC / USD applies, so a USD invoice is
 * safe from a depeg too.
 */
export function rateOf(
  currency: FiatCurrency,
  rounds: Partial<Record<keyof typeof PRICE_FEEDS, FeedRound>>,
): Rate {
  const usdc = rounds.USDC;
  if (!usdc) throw new Error("rateOf: no USDC / USD round");
  // usd per unit = a / 10^d; usdc per unit = (a_cur / 10^d_cur) / (a_usdc / 10^d_usdc).
  let numerator = 10n ** BigInt(PRICE_FEEDS.USDC.decimals);
  let denominator = usdc.answer;
  const used: Rate["rounds"] = { USDC: usdc };
  if (currency !== "USD") {
    const own = rounds[currency];
    if (!own) throw new Error(`rateOf: no ${PRICE_FEEDS[currency].pair} round`);
    numerator *= own.answer;
    denominator *= 10n ** BigInt(PRICE_FEEDS[currency].decimals);
    used[currency] = own;
  }
  for (const feed of feedsOf(currency)) if (!used[feed]) throw new Error(`rateOf: ${feed} missing`);
  return { currency, numerator, denominator, rounds: used };
}

/**
 * USDC base units to ask for `amount` (base units of the rate's currency): rounded up, so that
 * what the payer sends, converted back with `amountForUsdc` at the same rate, is never short of
 * `amount` (ceil then floor returns at least the start).
 */
export function usdcForAmount(amount: bigint, rate: Ratio): bigint {
  const product = amount * rate.numerator;
  return (product + rate.denominator - 1n) / rate.denominator;
}

/** What `usdc` base units are worth in the rate's currency: rounded down (never overcounted). */
export function amountForUsdc(usdc: bigint, rate: Ratio): bigint {
  return (usdc * rate.denominator) / rate.numerator;
}

/** A feed's answer as the decimal it stands for ("1.08512000" USD per EUR): for people. */
export function feedAnswerDecimal(answer: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = answer / scale;
  const fraction = (answer % scale).toString().padStart(decimals, "0");
  return decimals ? `${whole}.${fraction}` : `${whole}`;
}

/** A decimal rate typed by a person ("1.10") as a feed's integer answer with `decimals`. */
export function parseFeedAnswer(decimal: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) throw new RangeError(`${decimal} is not a decimal number`);
  const fraction = match[2] ?? "";
  if (fraction.length > decimals)
    throw new RangeError(`${decimal} has more than ${decimals} decimals`);
  return BigInt(match[1] ?? "0") * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0"));
}

/**
 * A rate as a decimal for people and the API: USDC per unit of the currency, 8 decimals
 * (the feeds' own), rounded down. The exact fraction stays what conversions use.
 *
 * @example formatRatio({ numerator: 11n, denominator: 10n }) // "1.10000000"
 */
export function formatRatio(rate: Ratio): string {
  return feedAnswerDecimal((rate.numerator * 10n ** 8n) / rate.denominator, 8);
}
