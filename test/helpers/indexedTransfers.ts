import { sql } from "kysely";
import type { Executor } from "../../db/database.ts";
import { installTransferTrigger } from "../../db/queries/indexer.ts";

/**
 * The indexer's transfer table in `schema`, with the columns the real indexer creates
 * (ponder.schema.ts), for tests of what reads it with SQL or reacts to its rows without running
 * Ponder. The columns a test does not write have defaults, so each test inserts only what it is
 * about. With `trigger`, Remit's trigger on it (a reconcile queued per transfer to a deposit
 * address), as the indexer's start installs it.
 */
export async function createIndexedTransfers(
  db: Executor,
  schema: string,
  options: { trigger: boolean },
): Promise<void> {
  await sql`create schema ${sql.id(schema)}`.execute(db);
  await sql`create table ${sql.table(`${schema}.usdc_transfer`)} (
    id text primary key, block_number numeric(78) not null default 0,
    block_hash text not null default '0x', timestamp numeric(78) not null default 0,
    tx_hash text not null default '0x', log_index integer not null default 0,
    "from" text not null default '0x', "to" text not null, value numeric(78) not null default 0)`.execute(
    db,
  );
  if (options.trigger) await installTransferTrigger(db, schema);
}
