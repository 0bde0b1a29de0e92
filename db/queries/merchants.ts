import { type Selectable, sql, type Transaction } from "kysely";
import type { Database, Executor } from "../database.ts";
import { takeManagedWallet } from "./managedWalletPool.ts";

export type MerchantForInvoice = {
  id: string;
  invoiceNumber: number;
  managedWalletAddress: string | null;
};

/**
 * The columns a creation reads of the merchant row it upserts (and so locks), and the
 * MerchantForInvoice they make: an invoice's creation and a link's read the same three.
 */
const MERCHANT_FOR_INVOICE = ["id", "last_invoice_number", "managed_wallet_address"] as const;

const merchantForInvoice = (
  row: Pick<Selectable<Database["app.merchants"]>, (typeof MERCHANT_FOR_INVOICE)[number]>,
): MerchantForInvoice => ({
  id: row.id,
  invoiceNumber: row.last_invoice_number,
  managedWalletAddress: row.managed_wallet_address,
});

/** The merchant row of `email` (the caller lower-cases it), to select columns from. */
const merchantByEmail = (db: Executor, email: string) =>
  db.selectFrom("app.merchants").where("email", "=", email);

/** The merchant row `id`, to select columns from. */
const merchantById = (db: Executor, id: string) =>
  db.selectFrom("app.merchants").where("id", "=", id);

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
    .returning(MERCHANT_FOR_INVOICE)
    .executeTakeFirstOrThrow();
  return merchantForInvoice(row);
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
    .returning(MERCHANT_FOR_INVOICE)
    .executeTakeFirstOrThrow();
  return merchantForInvoice(row);
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

export type MerchantAccount = {
  id: string;
  email: string;
  claimedAt: Date | null;
  name: string | null;
};

/** The merchant of `email` (lower-cased by the caller), or undefined. */
export async function findMerchantByEmail(
  db: Executor,
  email: string,
): Promise<MerchantAccount | undefined> {
  const row = await merchantByEmail(db, email)
    .select(["id", "email", "claimed_at", "name"])
    .executeTakeFirst();
  return row && { id: row.id, email: row.email, claimedAt: row.claimed_at, name: row.name };
}

/**
 * The merchant of `email`, created (unclaimed) when there is none, without locking its row:
 * what an idempotency key is scoped to before the creation itself takes the lock.
 */
export async function ensureMerchant(
  trx: Transaction<Database>,
  email: string,
): Promise<MerchantAccount> {
  await trx
    .insertInto("app.merchants")
    .values({ email })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  const found = await findMerchantByEmail(trx, email);
  if (!found) throw new Error(`merchant ${email} vanished`);
  return found;
}

/**
 * Marks the merchant of `email` claimed (its email verified), creating it if needed, and
 * registers `name` (and its reserved form `nameKey`) when given. Answers its id.
 */
export async function claimMerchant(
  trx: Transaction<Database>,
  email: string,
  registered?: { name: string; nameKey: string },
): Promise<string> {
  const row = await trx
    .insertInto("app.merchants")
    .values({
      email,
      claimed_at: sql<Date>`now()`,
      ...(registered ? { name: registered.name, name_key: registered.nameKey } : {}),
    })
    .onConflict((oc) =>
      oc.column("email").doUpdateSet({
        claimed_at: sql<Date>`coalesce(app.merchants.claimed_at, now())`,
        ...(registered ? { name: registered.name, name_key: registered.nameKey } : {}),
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The merchant whose registered name has the reserved form `nameKey`, if any. */
export async function findNameOwner(db: Executor, nameKey: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("app.merchants")
    .select("id")
    .where("name_key", "=", nameKey)
    .executeTakeFirst();
  return row?.id;
}

/** The name registered for the merchant `id` (`remit merchants add --name`), or null. */
export async function findRegisteredName(db: Executor, id: string): Promise<string | null> {
  const row = await merchantById(db, id).select("name").executeTakeFirst();
  return row?.name ?? null;
}

/** The email of the merchant `id`. */
export async function findMerchantEmail(db: Executor, id: string): Promise<string> {
  const row = await merchantById(db, id).select("email").executeTakeFirstOrThrow();
  return row.email;
}

/** When the merchant `id` was claimed, or null when it has no account (yet). */
export async function findClaimedAt(db: Executor, id: string): Promise<Date | null> {
  const row = await merchantById(db, id).select("claimed_at").executeTakeFirst();
  return row?.claimed_at ?? null;
}

/** The merchant's managed wallet address, or null before its first managed invoice or link. */
export async function findManagedWallet(db: Executor, id: string): Promise<string | null> {
  const row = await merchantById(db, id).select("managed_wallet_address").executeTakeFirst();
  return row?.managed_wallet_address ?? null;
}
