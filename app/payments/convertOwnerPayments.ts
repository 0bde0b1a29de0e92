import { firstUsableRate } from "../../chain/priceFeeds.ts";
import type { Executor } from "../../db/database.ts";
import { conversionsOf, quotesOf, saveConversion } from "../../db/queries/rates.ts";
import type { FiatCurrency } from "../../domain/currencies.ts";
import {
  type BlockRate,
  type ConvertedPayment,
  convertPayments,
} from "../../domain/currencyPayments.ts";
import type { IndexedTransfer } from "../../domain/paymentState.ts";

/** The chain, read-only, as the price feeds are read (chain/priceFeeds.ts). */
export type FeedReader = Parameters<typeof firstUsableRate>[0];

/**
 * The payments to a currency-priced invoice or link, in its currency (domain/currencyPayments.ts):
 * a payment of a quote counts as the quote; every other one at the rate stored for it, or, the
 * first time it is seen, at the first usable rate from its block on (read from the feeds, up to
 * the indexed `head`, and stored: the conversion of a transfer in a block is made once and then
 * only read). A payment no block up to `head` gives a usable rate for is `waiting`.
 */
export async function convertOwnerPayments(
  trx: Executor,
  reader: FeedReader,
  owner: { depositAddress: string; currency: FiatCurrency },
  paymentsInOrder: readonly IndexedTransfer[],
  head: bigint,
): Promise<{ converted: ConvertedPayment[]; waiting: IndexedTransfer[] }> {
  const [quotes, stored] = await Promise.all([
    quotesOf(trx, owner.depositAddress),
    conversionsOf(trx, owner.depositAddress),
  ]);
  // Which payments are not a quote's: only those need a rate (a first pass without any rate).
  const needRate = convertPayments(paymentsInOrder, quotes, new Map()).waiting;
  const rates = new Map<string, BlockRate>();
  for (const transfer of needRate) {
    const known = stored.find(
      (c) => c.transferId === transfer.id && c.blockNumber === transfer.blockNumber,
    );
    if (known) {
      rates.set(transfer.id, known.rate);
      continue;
    }
    const usable = await firstUsableRate(reader, owner.currency, transfer.blockNumber, head);
    if (!usable) continue;
    await saveConversion(trx, {
      depositAddress: owner.depositAddress,
      currency: owner.currency,
      transferId: transfer.id,
      blockNumber: transfer.blockNumber,
      rateBlockNumber: usable.blockNumber,
      rate: usable.rate,
      rounds: usable.rate.rounds,
    });
    rates.set(transfer.id, usable.rate);
  }
  return convertPayments(paymentsInOrder, quotes, rates);
}

/**
 * The conversions already made for an owner's payments, read back without the chain: what the
 * detail and the pages show of each payment (a quote's, or the rate stored for it). A payment
 * not converted yet (waiting for a rate, or not reconciled yet) is `waiting`.
 */
export async function storedOwnerConversions(
  db: Executor,
  depositAddress: string,
  paymentsInOrder: readonly IndexedTransfer[],
): Promise<{ converted: ConvertedPayment[]; waiting: IndexedTransfer[] }> {
  const [quotes, stored] = await Promise.all([
    quotesOf(db, depositAddress),
    conversionsOf(db, depositAddress),
  ]);
  const rates = new Map<string, BlockRate>();
  for (const transfer of paymentsInOrder) {
    const known = stored.find(
      (c) => c.transferId === transfer.id && c.blockNumber === transfer.blockNumber,
    );
    if (known) rates.set(transfer.id, known.rate);
  }
  return convertPayments(paymentsInOrder, quotes, rates);
}
