import { sql, type Transaction } from "kysely";
import type { Address } from "viem";
import type { Database } from "../database.ts";

/**
 * Allocates the next deposit address: an index from a sequence, the address derived from it.
 * Its insert wakes the indexer (NOTIFY on commit), so it is watched before anyone can see it.
 */
export async function allocateDepositAddress(
  trx: Transaction<Database>,
  derive: (index: number) => Address,
): Promise<Address> {
  const { index } = await sql<{
    index: number;
  }>`select nextval('app.deposit_address_index_seq')::int as index`
    .execute(trx)
    .then((result) => result.rows[0] ?? { index: -1 });
  const address = derive(index);
  await trx
    .insertInto("app.deposit_addresses")
    .values({ address: address.toLowerCase(), derivation_index: index })
    .execute();
  return address;
}
