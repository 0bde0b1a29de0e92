import type { FiatCurrency } from "../../domain/currencies.ts";
import type { Quote } from "../../domain/currencyPayments.ts";
import type { FeedRound, Ratio } from "../../domain/rates.ts";
import type { Executor } from "../database.ts";

/** A stored conversion: the rate a payment counted at, and the block it was read at. */
export type StoredConversion = {
  transferId: string;
  blockNumber: bigint;
  rateBlockNumber: bigint;
  rate: Ratio;
};

/** Records a quote (a row that never changes). */
export async function saveQuote(
  db: Executor,
  quote: Quote & { depositAddress: string; currency: FiatCurrency; blockNumber: bigint },
): Promise<void> {
  await db
    .insertInto("app.rate_quotes")
    .values({
      id: quote.id,
      deposit_address: quote.depositAddress,
      currency: quote.currency,
      amount_due: quote.amountDue,
      amount_due_usdc: quote.amountDueUsdc,
      rate_numerator: quote.rate.numerator.toString(),
      rate_denominator: quote.rate.denominator.toString(),
      block_number: quote.blockNumber,
      quoted_at: quote.quotedAt,
      expires_at: quote.expiresAt,
    })
    .execute();
}

/** Every quote given for a deposit address, oldest first. */
export async function quotesOf(db: Executor, depositAddress: string): Promise<Quote[]> {
  const rows = await db
    .selectFrom("app.rate_quotes")
    .selectAll()
    .where("deposit_address", "=", depositAddress)
    .orderBy("quoted_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    amountDue: row.amount_due,
    amountDueUsdc: row.amount_due_usdc,
    rate: { numerator: BigInt(row.rate_numerator), denominator: BigInt(row.rate_denominator) },
    quotedAt: row.quoted_at,
    expiresAt: row.expires_at,
  }));
}

/** The conversions stored for a deposit address's transfers (any block: the caller matches). */
export async function conversionsOf(
  db: Executor,
  depositAddress: string,
): Promise<StoredConversion[]> {
  const rows = await db
    .selectFrom("app.payment_conversions")
    .select([
      "transfer_id",
      "block_number",
      "rate_block_number",
      "rate_numerator",
      "rate_denominator",
    ])
    .where("deposit_address", "=", depositAddress)
    .execute();
  return rows.map((row) => ({
    transferId: row.transfer_id,
    blockNumber: row.block_number,
    rateBlockNumber: row.rate_block_number,
    rate: { numerator: BigInt(row.rate_numerator), denominator: BigInt(row.rate_denominator) },
  }));
}

/** Stores a payment's conversion once; a second run for the same transfer and block keeps the first. */
export async function saveConversion(
  db: Executor,
  conversion: StoredConversion & {
    depositAddress: string;
    currency: FiatCurrency;
    rounds: Partial<Record<string, FeedRound>>;
  },
): Promise<void> {
  const rounds = Object.fromEntries(
    Object.entries(conversion.rounds).map(([feed, round]) => [
      feed,
      round && {
        round_id: round.roundId.toString(),
        answer: round.answer.toString(),
        started_at: round.startedAt.toString(),
        updated_at: round.updatedAt.toString(),
      },
    ]),
  );
  await db
    .insertInto("app.payment_conversions")
    .values({
      deposit_address: conversion.depositAddress,
      transfer_id: conversion.transferId,
      block_number: conversion.blockNumber,
      currency: conversion.currency,
      rate_block_number: conversion.rateBlockNumber,
      rate_numerator: conversion.rate.numerator.toString(),
      rate_denominator: conversion.rate.denominator.toString(),
      rounds: JSON.stringify(rounds),
    })
    .onConflict((oc) => oc.columns(["deposit_address", "transfer_id", "block_number"]).doNothing())
    .execute();
}
