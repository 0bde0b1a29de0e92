import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { rowsStillCanonical } from "../../indexer/catchUp.ts";
import { DepositAddressSet } from "../../indexer/depositAddresses.ts";
import { HeldRows } from "../../indexer/heldRows.ts";
import { useChainForFile } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createIndexedTransfers } from "../helpers/indexedTransfers.ts";

const SCHEMA = "idx_held_rows_test";
type Row = { id: string; to: string };
const row: Row = { id: "0x0a-0", to: `0x${"d".repeat(40)}` };

/**
 * A catch-up (transfers to an address the indexer learnt late, found on the chain) is taken from
 * the deposit-address set in the handler, and its rows stored in the block's transaction. When
 * the database goes away mid-block, Ponder rolls that transaction back and runs the block's
 * handlers again: the catch-up, already taken, was not found again, and the payment it had found
 * was lost. Its rows are now held until a read outside Ponder's transaction sees them committed.
 */
describe("a catch-up's rows survive a block whose transaction is retried", () => {
  let database: TestDatabase;
  let set: DepositAddressSet;
  let ponder: pg.Client;
  beforeEach(async () => {
    database = await createTestDatabase();
    await createIndexedTransfers(database.db, SCHEMA, { trigger: false });
    set = new DepositAddressSet(database.url, SCHEMA);
    await set.current();
    ponder = new pg.Client({ connectionString: database.url });
    await ponder.connect();
  });
  afterEach(async () => {
    await ponder?.end();
    await set?.close();
    await database?.drop();
  });

  /** One run of a block's handlers in a transaction, as Ponder runs them. */
  const block = async (rows: Row[], outcome: "commit" | "rollback") => {
    await ponder.query("begin");
    for (const r of rows)
      await ponder.query(
        `insert into ${SCHEMA}.usdc_transfer (id, "to") values ($1, $2) on conflict do nothing`,
        [r.id, r.to],
      );
    await ponder.query(outcome);
  };

  test("rolled back, they are handed out again; committed, they are forgotten", async () => {
    const held = new HeldRows<Row>((ids) => set.committedTransferIds(ids));
    // The first run: the catch-up stores its row, then the database fails the transaction.
    held.hold([row]);
    await block([row], "rollback");
    // The retry runs the handlers again: the row comes back from the held ones.
    const again = await held.uncommitted();
    expect(again).toEqual([row]);
    await block(again, "commit");
    expect(await held.uncommitted()).toEqual([]);
    const stored = await sql<{ id: string }>`select id from ${sql.table(
      `${SCHEMA}.usdc_transfer`,
    )}`.execute(database.db);
    expect(stored.rows.map((r) => r.id)).toEqual([row.id]);
  });

  test("while the set cannot read the table, every held row is handed out (storing twice is a no-op)", async () => {
    const held = new HeldRows<Row>((ids) => set.committedTransferIds(ids));
    held.hold([row]);
    await block([row], "commit");
    await set.close();
    expect(await held.uncommitted()).toEqual([row]);
  });

  test("a held row whose block a reorg replaced is not stored again; one whose block stays is", async () => {
    const chain = useChainForFile();
    const head = await chain.client.getBlock();
    const stays = { id: "0x0b-0", blockNumber: head.number, blockHash: head.hash };
    const reorged = {
      id: "0x0c-0",
      blockNumber: head.number,
      blockHash: `0x${"e".repeat(64)}` as const,
    };
    expect(await rowsStillCanonical(chain.client, [stays, reorged])).toEqual([stays]);
  });
});
