import type { Address } from "viem";
import { formatUsdc } from "../../domain/money.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import { usdcPaymentUri } from "../../domain/paymentUri.ts";
import type { CurrencyFacts } from "./currencyFacts.ts";

export type { CurrencyFacts };

/** The currency fields of an invoice's or link's body (app/invoices/schema.ts CurrencyAmountFields). */
export type CurrencyAmounts = {
  paid_amount_usdc?: string;
  amount_due_usdc?: string | null;
  quote_expires_at?: string;
  rate_unavailable?: string;
};

/**
 * What a body priced in a currency adds to the spec's fields: the USDC received, and what to
 * send now — the standing quote and until when it holds, or null and why there is none. Nothing
 * for one priced in USDC, whose body is the spec's, unchanged.
 */
export function presentCurrencyAmounts(
  currency: CurrencyFacts | null,
  state: Pick<PaymentState, "received">,
): CurrencyAmounts {
  if (!currency) return {};
  const paid = { paid_amount_usdc: formatUsdc(state.received) };
  const ask = currency.ask;
  if (!ask) return { ...paid, amount_due_usdc: "0.00" };
  if (ask.unavailable !== undefined)
    return { ...paid, amount_due_usdc: null, rate_unavailable: ask.unavailable };
  return {
    ...paid,
    amount_due_usdc: formatUsdc(ask.quote.amountDueUsdc),
    quote_expires_at: ask.quote.expiresAt.toISOString(),
  };
}

/**
 * The EIP-681 request for `amount` in the owner's unit: itself in USDC; in a currency, the
 * quote's USDC while one stands, and without an amount while no rate can be read (a wallet
 * must never be asked for euros as if they were USDC).
 */
export function paymentUriFor(
  deposit: Address,
  currency: CurrencyFacts | null,
  amount: bigint,
): string {
  if (!currency) return usdcPaymentUri(deposit, amount);
  return usdcPaymentUri(deposit, currency.ask?.quote?.amountDueUsdc ?? null);
}

/**
 * What a payer is asked to send now, in USDC: the amount due itself for an owner priced in
 * USDC; for one priced in a currency, the quote standing for it (0 while no rate can be read:
 * nothing is asked). The one reading the pages and the routes share.
 */
export function askedUsdc(currency: CurrencyFacts | null | undefined, due: bigint): bigint {
  if (!currency) return due;
  return currency.ask?.quote?.amountDueUsdc ?? 0n;
}
