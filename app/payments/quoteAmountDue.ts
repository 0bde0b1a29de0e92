import { rateAtBlock } from "../../chain/priceFeeds.ts";
import type { Executor } from "../../db/database.ts";
import { quotesOf, saveQuote } from "../../db/queries/rates.ts";
import type { FiatCurrency } from "../../domain/currencies.ts";
import {
  DEFAULT_QUOTE_WINDOW_MS,
  type Quote,
  standingQuote,
} from "../../domain/currencyPayments.ts";
import { usdcForAmount } from "../../domain/rates.ts";

/** The chain, read-only: its latest block and the feeds in it (chain/priceFeeds.ts). */
export type QuoteReader = Parameters<typeof rateAtBlock>[0] & {
  getBlockNumber(): Promise<bigint>;
};

/** What to ask a payer for, or why nothing can be asked now. */
export type QuoteAnswer =
  | {
      quote: Quote;
      reused: boolean;
      /** The time it was asked at (the chain's): a page counts the quote's time left from it. */
      at: Date;
      unavailable?: never;
    }
  | { unavailable: string; quote?: never };

/**
 * What a payer of a currency-priced invoice or link is asked to send now for `amountDue` (in
 * its currency): the quote that still stands for that amount (domain/currencyPayments.ts
 * standingQuote: every reload inside the window shows the same figure), or a new one at the rate
 * of the chain's latest block, held for `windowMs` from that block's time (or `at`) and stored,
 * so a payment of exactly its `amountDueUsdc` inside the window counts as `amountDue`
 * (convertPayments). When the latest block gives no usable rate (a stale feed, the sequencer
 * down), nothing is asked: `unavailable` says why, and the page says "rate unavailable".
 *
 * Whether a quote stands is judged on the chain's clock as this process last measured it
 * (chainClock, one read of the head every 10 s): a public page reloaded in a flood costs the RPC
 * nothing while its quote stands, and a quote keeps two minutes of margin, far more than the
 * measure's error. A new quote reads the head's own block and time.
 */
export async function quoteAmountDue(
  db: Executor,
  reader: QuoteReader,
  owner: { depositAddress: string; currency: FiatCurrency },
  amountDue: bigint,
  at?: Date,
  windowMs: number = DEFAULT_QUOTE_WINDOW_MS,
): Promise<QuoteAnswer> {
  const quotes = await quotesOf(db, owner.depositAddress);
  const roughly = at ?? (await chainClock(reader));
  const standing = standingQuote(quotes, amountDue, roughly);
  if (standing) return { quote: standing, reused: true, at: roughly };
  const blockNumber = await reader.getBlockNumber();
  // The chain's time, not this server's: the window is judged against payments' block times,
  // so both ends are read from one clock (a server's drift, or a local chain's, moves neither).
  const now = at ?? blockTime(await reader.getBlock({ blockNumber }));
  const read = await rateAtBlock(reader, owner.currency, blockNumber);
  if (read.problem !== undefined) return { unavailable: read.problem };
  const quote: Quote = {
    id: crypto.randomUUID(),
    amountDue,
    amountDueUsdc: usdcForAmount(amountDue, read.rate),
    rate: { numerator: read.rate.numerator, denominator: read.rate.denominator },
    quotedAt: now,
    expiresAt: new Date(now.getTime() + windowMs),
  };
  await saveQuote(db, { ...quote, ...owner, blockNumber });
  return { quote, reused: false, at: now };
}

const blockTime = (block: { timestamp: bigint }) => new Date(Number(block.timestamp) * 1000);

/** How long a measure of the chain's clock against this server's serves. */
const CHAIN_CLOCK_MS = 10_000;

/** Each reader's last measure of its chain's clock: the offset from this server's, and when. */
const clocks = new WeakMap<QuoteReader, Promise<{ offsetMs: number; measuredAt: number }>>();

/**
 * The chain's time now, from the offset of its head's timestamp to this server's clock,
 * measured at most every 10 s per reader (concurrent callers share one measure).
 */
async function chainClock(reader: QuoteReader): Promise<Date> {
  let measure = clocks.get(reader);
  const known = measure ? await measure.catch(() => null) : null;
  if (!known || Date.now() - known.measuredAt > CHAIN_CLOCK_MS) {
    measure = (async () => {
      const head = await reader.getBlock({ blockNumber: await reader.getBlockNumber() });
      return { offsetMs: blockTime(head).getTime() - Date.now(), measuredAt: Date.now() };
    })();
    clocks.set(reader, measure);
  }
  const { offsetMs } = await (measure as Promise<{ offsetMs: number; measuredAt: number }>);
  return new Date(Date.now() + offsetMs);
}
