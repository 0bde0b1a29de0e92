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
 * of the chain's latest block, held for `windowMs` from that block's time (or `at`) and stored, so a payment of exactly
 * its `amountDueUsdc` inside the window counts as `amountDue` (convertPayments). When the latest
 * block gives no usable rate (a stale feed, the sequencer down), nothing is asked: `unavailable`
 * says why, and the page says "rate unavailable".
 */
export async function quoteAmountDue(
  db: Executor,
  reader: QuoteReader,
  owner: { depositAddress: string; currency: FiatCurrency },
  amountDue: bigint,
  at?: Date,
  windowMs: number = DEFAULT_QUOTE_WINDOW_MS,
): Promise<QuoteAnswer> {
  const blockNumber = await reader.getBlockNumber();
  // The chain's time, not this server's: the window is judged against payments' block times,
  // so both ends are read from one clock (a server's drift, or a local chain's, moves neither).
  const now = at ?? new Date(Number((await reader.getBlock({ blockNumber })).timestamp) * 1000);
  const standing = standingQuote(await quotesOf(db, owner.depositAddress), amountDue, now);
  if (standing) return { quote: standing, reused: true, at: now };
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
