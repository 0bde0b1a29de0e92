import type { Selectable } from "kysely";
import type { Database, Executor } from "../database.ts";
import { indexedTransfersFrom } from "./indexer.ts";

export type SweepRow = Selectable<Database["app.sweeps"]>;

/** A sweep as Remit recorded it, and whether its transfer out is in the indexed ledger. */
export type IndexedSweepRow = SweepRow & { indexed: boolean };

/** The sweeps of a deposit address in order, each checked against the indexed transfers out. */
export async function findSweepsOf(
  db: Executor,
  indexerSchema: string,
  depositAddress: string,
): Promise<IndexedSweepRow[]> {
  const [rows, out] = await Promise.all([
    db
      .selectFrom("app.sweeps")
      .selectAll()
      .where("deposit_address", "=", depositAddress)
      .orderBy("sequence")
      .execute(),
    indexedTransfersFrom(db, indexerSchema, depositAddress),
  ]);
  return rows.map((row) => ({ ...row, indexed: out.some((t) => t.txHash === row.tx_hash) }));
}
