import { type ExpressionBuilder, sql } from "kysely";
import type { Database, Executor } from "../database.ts";

export type PayoutWalletRow = { address: string; created_at: Date };

/** The merchant's current (not removed) payout wallet `address`, in any letter case. */
const currentWallet =
  (merchantId: string, address: string) =>
  (eb: ExpressionBuilder<Database, "app.payout_wallets">) =>
    eb.and([
      eb("merchant_id", "=", merchantId),
      eb("removed_at", "is", null),
      eb(sql<string>`lower(address)`, "=", address.toLowerCase()),
    ]);

/** The merchant's current payout wallets, oldest first. */
export async function listPayoutWallets(
  db: Executor,
  merchantId: string,
): Promise<PayoutWalletRow[]> {
  return db
    .selectFrom("app.payout_wallets")
    .select(["address", "created_at"])
    .where("merchant_id", "=", merchantId)
    .where("removed_at", "is", null)
    .orderBy("created_at")
    .execute();
}

/** Whether `address` is one of the merchant's current payout wallets (any letter case). */
export async function isPayoutWallet(
  db: Executor,
  merchantId: string,
  address: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("app.payout_wallets")
    .select("id")
    .where(currentWallet(merchantId, address))
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds a payout wallet; `added` is false when the merchant already had it (nothing written). */
export async function addPayoutWallet(
  db: Executor,
  merchantId: string,
  address: string,
): Promise<{ wallet: PayoutWalletRow; added: boolean }> {
  const inserted = await db
    .insertInto("app.payout_wallets")
    .values({ merchant_id: merchantId, address, removed_at: null })
    // The one unique index: a merchant's current wallets (any letter case).
    .onConflict((oc) => oc.doNothing())
    .returning(["address", "created_at"])
    .executeTakeFirst();
  if (inserted) return { wallet: inserted, added: true };
  const existing = await db
    .selectFrom("app.payout_wallets")
    .select(["address", "created_at"])
    .where(currentWallet(merchantId, address))
    .executeTakeFirstOrThrow();
  return { wallet: existing, added: false };
}

/** Removes a payout wallet (its row stays, marked removed); false when it was not one. */
export async function removePayoutWallet(
  db: Executor,
  merchantId: string,
  address: string,
): Promise<boolean> {
  const result = await db
    .updateTable("app.payout_wallets")
    .set({ removed_at: sql<Date>`now()` })
    .where(currentWallet(merchantId, address))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
