import { sql, type Transaction } from "kysely";
import type { Address } from "viem";
import type { Database } from "../database.ts";

/** The next value of a derivation-index sequence. */
export async function nextIndex(trx: Transaction<Database>, sequence: string): Promise<number> {
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
