import { sql, type Transaction } from "kysely";
import type { Address } from "viem";
import type { Database, Executor } from "../database.ts";

/** The next value of a derivation-index sequence (never rolled back: an unused one is a gap). */
export async function nextIndex(trx: Executor, sequence: string): Promise<number> {
  const { rows } = await sql<{
    index: number;
  }>`select nextval(${sequence}::regclass)::int as index`.execute(trx);
  const index = rows[0]?.index;
  if (index === undefined) throw new Error(`nextval(${sequence}) returned nothing`);
  return index;
}

/**
 * Allocates the next deposit address: an index from a sequence, the address derived from it.
 * Its insert wakes the indexer (NOTIFY on commit), so it is watched before anyone can see it.
 */
export async function allocateDepositAddress(
  trx: Transaction<Database>,
  derive: (index: number) => Address,
): Promise<Address> {
  const index = await nextIndex(trx, "app.deposit_address_index_seq");
  const address = derive(index);
  await trx
    .insertInto("app.deposit_addresses")
    .values({ address: address.toLowerCase(), derivation_index: index })
    .execute();
  return address;
}

/** The HD derivation index of a deposit address (lowercase), or undefined if it is not ours. */
export async function findDerivationIndex(
  db: Executor,
  address: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom("app.deposit_addresses")
    .select("derivation_index")
    .where("address", "=", address)
    .executeTakeFirst();
  return row?.derivation_index;
}

/** A deposit address with the wallet it is swept to and its owner (invoice number or slug). */
export type DepositOwner = { deposit_address: string; wallet_address: string; owner: string };

/** Every invoice's and payment link's deposit address, invoices first. */
export async function findDepositOwners(db: Executor): Promise<DepositOwner[]> {
  return [
    ...(await db
      .selectFrom("app.invoices")
      .select(["deposit_address", "wallet_address", "invoice_number as owner"])
      .execute()),
    ...(await db
      .selectFrom("app.payment_links")
      .select(["deposit_address", "wallet_address", "slug as owner"])
      .execute()),
  ];
}
