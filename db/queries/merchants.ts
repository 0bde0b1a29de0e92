import { sql, type Transaction } from "kysely";
import type { Database, Executor } from "../database.ts";
import { takeManagedWallet } from "./managedWalletPool.ts";

export type MerchantForInvoice = {
  id: string;
  invoiceNumber: number;
  managedWalletAddress: string | null;
};

/**
 * Finds or creates the merchant for `email` and takes its next invoice number. The row lock
 * this upsert holds until commit serialises concurrent creations for one merchant, so numbers
 * are unique and gap-free (a rolled-back creation gives its number back).
 */
export async function takeNextInvoiceNumber(
  trx: Transaction<Database>,
  email: string,
): Promise<MerchantForInvoice> {
  const row = await trx
    .insertInto("app.merchants")
    .values({ email, last_invoice_number: 1 })
    .onConflict((oc) =>
      oc
        .column("email")
        .doUpdateSet({ last_invoice_number: sql`app.merchants.last_invoice_number + 1` }),
    )
    .returning(["id", "last_invoice_number", "managed_wallet_address"])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    invoiceNumber: row.last_invoice_number,
    managedWalletAddress: row.managed_wallet_address,
  };
}

/**
 * Finds or creates the merchant for `email` without taking an invoice number (payment links),
 * locking its row like takeNextInvoiceNumber so a managed wallet is provisioned once.
 */
export async function findOrCreateMerchant(
  trx: Transaction<Database>,
  email: string,
): Promise<MerchantForInvoice> {
  const row = await trx
    .insertInto("app.merchants")
    .values({ email })
    .onConflict((oc) => oc.column("email").doUpdateSet({ email }))
    .returning(["id", "last_invoice_number", "managed_wallet_address"])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    invoiceNumber: row.last_invoice_number,
    managedWalletAddress: row.managed_wallet_address,
  };
}

/**
 * The merchant's managed wallet, provisioned on first use: one of the addresses the worker
 * derived ahead (app.managed_wallet_pool), or null when the pool is empty. Must run while the
 * merchant row is locked (see above); a rolled-back creation gives the address back.
 */
export async function provisionManagedWallet(
  trx: Transaction<Database>,
  merchantId: string,
): Promise<string | null> {
  const wallet = await takeManagedWallet(trx);
  if (!wallet) return null;
  await trx
    .updateTable("app.merchants")
    .set({
      managed_wallet_index: wallet.derivation_index,
      managed_wallet_address: wallet.address,
      managed_wallet_hardened: true,
    })
    .where("id", "=", merchantId)
    .execute();
  return wallet.address;
}

/** The name on the merchant's latest invoice, or null: who a link's checkout says is asking. */
export async function findLatestMerchantName(
  db: Executor,
  merchantId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("app.invoices")
    .select("merchant_name_snapshot")
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.merchant_name_snapshot ?? null;
}
