import type { CurrencyFacts } from "../app/payments/currencyFacts.ts";
import { QUOTE_MIN_REMAINING_MS } from "../domain/currencyPayments.ts";
import { formatUsdcForDisplay } from "../domain/money.ts";
import { formatRatio } from "../domain/rates.ts";

/**
 * How long a page may keep showing a quote: its time left once two minutes are kept for the
 * payer's wallet, and at least 30 s, so a page never reloads in a loop.
 */
const renewIn = (expiresAt: Date, at: Date): number =>
  Math.max(30_000, expiresAt.getTime() - at.getTime() - QUOTE_MIN_REMAINING_MS);

/**
 * PaymentRoot's `quoted` for a page priced in a currency (undefined in USDC): pay.js reloads it
 * when the USDC received changes, and before its quote lapses.
 */
export function quotedPage(
  currency: CurrencyFacts | null | undefined,
  receivedUsdc: bigint,
): { receivedUsdc: bigint; renewInMs: number | null } | undefined {
  if (!currency) return undefined;
  const quote = currency.ask?.quote;
  return {
    receivedUsdc,
    renewInMs: quote && currency.ask ? renewIn(quote.expiresAt, currency.ask.at) : null,
  };
}

/**
 * What a page priced in a currency (an invoice's, a link's checkout) tells of its quote: the
 * amount due in the currency, the USDC asked for it and until when that holds — or that no rate
 * can be read now, and nothing is asked.
 */
export function QuoteNote(props: { currency: CurrencyFacts; due: bigint }) {
  const { ask, currency } = props.currency;
  if (!ask?.quote)
    return (
      <section class="card warning" role="status" data-rate-unavailable>
        <strong>Rate unavailable.</strong> The USDC amount for {formatUsdcForDisplay(props.due)}{" "}
        {currency} cannot be worked out right now ({ask?.unavailable ?? "no rate"}). Please come
        back later: nothing is asked until a fresh rate is published on Base.
      </section>
    );
  const until = ask.quote.expiresAt.toISOString().slice(11, 16);
  return (
    <section class="card small" data-quote>
      <strong>
        {formatUsdcForDisplay(props.due)} {currency} ={" "}
        {formatUsdcForDisplay(ask.quote.amountDueUsdc)} USDC
      </strong>{" "}
      at {formatRatio(ask.quote.rate)} USDC per {currency}, the rate on Base (Chainlink). Send
      exactly this amount by {until} UTC and it pays {formatUsdcForDisplay(props.due)} {currency},
      whatever the rate does; after that this page asks again at the rate of the moment.
    </section>
  );
}
