import { type Selectable, sql } from "kysely";
import type { ManagedWalletBook } from "../../domain/managedWallet.ts";
import type { Database, Executor } from "../database.ts";
import { queuedEmail } from "./emails.ts";
import { rowFinder, rowInserter } from "./rows.ts";
import { type TransferUpdate, transferUpdater } from "./transferProgress.ts";

export type PayoutRow = Selectable<Database["app.payouts"]>;

/**
 * A managed wallet's books (domain/managedWallet.ts), from Remit's records: confirmed sweeps
 * into it, confirmed refunds and payouts out of it, and the unfinished ones.
 */
export async function loadManagedWalletBook(
  db: Executor,
  wallet: string,
): Promise<ManagedWalletBook> {
  const address = wallet.toLowerCase();
  const { rows } = await sql<{
    swept_in: bigint;
    refunded: bigint;
    paid_out: bigint;
    pending_refunds: bigint;
    pending_payouts: bigint;
  }>`
    select
      (select coalesce(sum(amount), 0) from app.sweeps
        where lower(destination) = ${address} and status = 'confirmed')::bigint as swept_in,
      (select coalesce(sum(amount), 0) from app.refunds
        where from_address = ${address} and source = 'managed_wallet' and status = 'confirmed')::bigint as refunded,
      (select coalesce(sum(amount), 0) from app.payouts
        where from_address = ${address} and status = 'confirmed')::bigint as paid_out,
      (select coalesce(sum(amount), 0) from app.refunds
        where from_address = ${address} and source = 'managed_wallet' and status in ('requested', 'submitted'))::bigint as pending_refunds,
      (select coalesce(sum(amount), 0) from app.payouts
        where from_address = ${address} and status in ('requested', 'submitted'))::bigint as pending_payouts`.execute(
    db,
  );
  const row = rows[0];
  return {
    sweptIn: BigInt(row?.swept_in ?? 0n),
    sentOut: BigInt(row?.refunded ?? 0n) + BigInt(row?.paid_out ?? 0n),
    pendingRefunds: BigInt(row?.pending_refunds ?? 0n),
    pendingPayouts: BigInt(row?.pending_payouts ?? 0n),
  };
}

/** Inserts a payout, answered as stored. */
export const insertPayout = rowInserter("app.payouts");

/** The payout with this id, or undefined. */
export const findPayout = rowFinder("app.payouts", "id");

/** How many payouts the merchant asked for since `since` (every status), and the oldest one's time. */
export async function payoutsSince(
  db: Executor,
  merchantId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom("app.payouts")
    .select((eb) => [eb.fn.countAll<string>().as("count"), eb.fn.min("created_at").as("oldest")])
    .where("merchant_id", "=", merchantId)
    .where("created_at", ">=", since)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), oldest: (row?.oldest as Date | null) ?? null };
}

/** The merchant's payouts, newest first (at most `limit`). */
export async function listPayouts(
  db: Executor,
  merchantId: string,
  limit: number,
): Promise<PayoutRow[]> {
  return db
    .selectFrom("app.payouts")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** What a payout's progress changes; `attempt` counts one more submission. */
export type PayoutUpdate = TransferUpdate;

/** Updates a payout while it is in one of `onlyIf` (transferProgress.ts transferUpdater). */
export const updatePayout = transferUpdater("app.payouts");

/** Queues a payout's email to the account (one of each kind per payout). */
export async function queuePayoutEmail(
  db: Executor,
  email: { kind: "payout_requested" | "payout_failed"; recipient: string; payoutId: string },
): Promise<void> {
  await db
    .insertInto("app.emails")
    .values({
      ...queuedEmail({ kind: email.kind, invoiceId: null, recipient: email.recipient }),
      payout_id: email.payoutId,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
