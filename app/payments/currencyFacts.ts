import { createFeedReader } from "../../chain/priceFeeds.ts";
import type { Executor } from "../../db/database.ts";
import type { Currency, FiatCurrency } from "../../domain/currencies.ts";
import type { ConvertedPayment } from "../../domain/currencyPayments.ts";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import { orderedPayments, type PaymentState } from "../../domain/paymentState.ts";
import { storedOwnerConversions } from "./convertOwnerPayments.ts";
import { type QuoteAnswer, type QuoteReader, quoteAmountDue } from "./quoteAmountDue.ts";

/**
 * What an invoice or link priced in a currency shows besides its amounts in that currency: each
 * counted payment's conversion (read back, never made here: reconcile makes them) and what a
 * payer is asked to send now (a quote held for its window, or why there is none).
 */
export type CurrencyFacts = {
  currency: FiatCurrency;
  converted: ConvertedPayment[];
  /** What to send now for what is due; null when nothing is due. */
  ask: QuoteAnswer | null;
};

/** Chain readers by RPC URL: one client per process and chain, made on first use. */
const readers = new Map<string, QuoteReader>();

/**
 * A reader of the price feeds at `rpcUrl` (createFeedReader: its reads of a rate in one round
 * trip, nothing cached), without retries: a page or a detail answers within its budget, or says
 * the rate is unavailable (the app is also built without a chain: the OpenAPI document alone,
 * so nothing is made until a quote is asked for).
 */
export function quoteReaderFor(rpcUrl: string): QuoteReader {
  let reader = readers.get(rpcUrl);
  if (!reader) {
    reader = createFeedReader(rpcUrl, { retryCount: 0 });
    readers.set(rpcUrl, reader);
  }
  return reader;
}

/**
 * The currency facts of an owner (`null` for one priced in USDC): its counted payments'
 * conversions, and a quote for `due` (its currency's base units) when something is due. A chain
 * that does not answer is a quote unavailable, never an error of the page or the API.
 */
export async function currencyFacts(
  deps: { db: Executor; rpcUrl: string; reader?: QuoteReader },
  owner: { depositAddress: string; currency: Currency },
  state: PaymentState,
  transfers: readonly IndexedTransfer[],
  due: bigint,
): Promise<CurrencyFacts | null> {
  if (owner.currency === "USDC") return null;
  const currency = owner.currency;
  const counted = transfers.filter((t) => state.counted.includes(t.id));
  const { converted } = await storedOwnerConversions(
    deps.db,
    owner.depositAddress,
    orderedPayments(owner.depositAddress, counted),
  );
  const ask =
    due > 0n
      ? await quoteAmountDue(
          deps.db,
          deps.reader ?? quoteReaderFor(deps.rpcUrl),
          { depositAddress: owner.depositAddress, currency },
          due,
        ).catch((): QuoteAnswer => ({ unavailable: "the chain's price feeds cannot be read now" }))
      : null;
  return { currency, converted, ask };
}
