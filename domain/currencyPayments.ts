import type { IndexedTransfer } from "./paymentState.ts";
import { amountForUsdc, type Ratio } from "./rates.ts";

/**
 * What a hosted page, the widget, x402 or the gasless route asked a payer to send for an
 * amount in the invoice's currency: `amountDueUsdc` at `rate`, held from `quotedAt` to
 * `expiresAt` (the quote window, 15 minutes unless the merchant sets it).
 */
export type Quote = {
  id: string;
  /** The amount in the invoice's currency the quote stood for (its base units). */
  amountDue: bigint;
  /** What it asked for, in USDC base units. */
  amountDueUsdc: bigint;
  rate: Ratio;
  quotedAt: Date;
  expiresAt: Date;
};

/** One payment in the invoice's currency, and how it was converted. */
export type ConvertedPayment = {
  transfer: IndexedTransfer;
  /** Its worth in the invoice's currency (base units). */
  amount: bigint;
  /** USDC per unit of the currency it was converted at (an exact fraction). */
  rate: Ratio;
  /** The quote it paid, when it paid one exactly inside its window; otherwise its block's rate. */
  quoteId: string | null;
};

/** What a payment's block says of the rate: the rate, or why there is none yet. */
export type BlockRate = Ratio | { problem: string };

/**
 * The payments to an invoice or link priced in a currency, converted one by one in chain order:
 *
 * - a payment of exactly a quote's `amountDueUsdc`, mined inside the quote's window, counts as
 *   the quote's `amountDue` — a payer who paid what the page said is never short because the
 *   rate moved between the quote and the block; each quote is honoured once;
 * - any other payment counts at the rate of its own block (`blockRates`, by transfer id), so the
 *   conversion is a function of the chain alone, the same on every replay;
 * - a payment whose block gives no usable rate (a stale feed, the sequencer down) is `waiting`:
 *   it counts for nothing yet, and is converted when a rate for it is known.
 */
export function convertPayments(
  paymentsInOrder: readonly IndexedTransfer[],
  quotes: readonly Quote[],
  blockRates: ReadonlyMap<string, BlockRate>,
): { converted: ConvertedPayment[]; waiting: IndexedTransfer[] } {
  const used = new Set<string>();
  const converted: ConvertedPayment[] = [];
  const waiting: IndexedTransfer[] = [];
  for (const transfer of paymentsInOrder) {
    const quote = quotes.find(
      (q) =>
        !used.has(q.id) &&
        q.amountDueUsdc === transfer.value &&
        q.quotedAt.getTime() <= transfer.paidAt.getTime() &&
        transfer.paidAt.getTime() <= q.expiresAt.getTime(),
    );
    if (quote) {
      used.add(quote.id);
      converted.push({ transfer, amount: quote.amountDue, rate: quote.rate, quoteId: quote.id });
      continue;
    }
    const rate = blockRates.get(transfer.id);
    if (!rate || "problem" in rate) {
      waiting.push(transfer);
      continue;
    }
    converted.push({
      transfer,
      amount: amountForUsdc(transfer.value, rate),
      rate,
      quoteId: null,
    });
  }
  return { converted, waiting };
}

/** How long a quote holds when the merchant sets no window: 15 minutes, as BTCPay's invoices. */
export const DEFAULT_QUOTE_WINDOW_MS = 15 * 60_000;

/**
 * A quote is shown again only while it has at least this long left: a payer who opens the page
 * with a minute to go would otherwise be asked for an amount that lapses while their wallet
 * signs. Past it, the page asks at the rate of the moment (a new quote), and says so.
 */
export const QUOTE_MIN_REMAINING_MS = 2 * 60_000;

/**
 * The quote that still stands for `amountDue` at `now`: the newest one given for that same
 * amount with at least QUOTE_MIN_REMAINING_MS left, so every reload inside a window shows the
 * same figure; undefined when a new one must be given.
 */
export function standingQuote(
  quotes: readonly Quote[],
  amountDue: bigint,
  now: Date,
): Quote | undefined {
  const fresh = quotes.filter(
    (q) =>
      q.amountDue === amountDue &&
      q.quotedAt.getTime() <= now.getTime() &&
      q.expiresAt.getTime() - now.getTime() >= QUOTE_MIN_REMAINING_MS,
  );
  return fresh.sort((a, b) => b.quotedAt.getTime() - a.quotedAt.getTime())[0];
}
