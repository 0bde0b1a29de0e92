import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createIndexedTransfers } from "../helpers/indexedTransfers.ts";

const SCHEMA = "idx_durable_test";
const DEPOSIT = `0x${"d".repeat(40)}`;

/**
 * Ponder sets synchronous_commit = off on its connections: a commit of an indexed transfer could
 * be lost in a Postgres crash the indexer survives, and Ponder never indexes that block again
 * (the fault suite's kill -9 of Postgres lost INV-0005's payment this way). The reconcile trigger
 * makes every transaction that writes a transfer commit as the database is configured. The crash
 * itself is the fault suite's (faults/, "kill -9 of the postgres"); this is the mechanism, exactly.
 */
describe("an indexed transfer survives a Postgres crash", () => {
  let database: TestDatabase;
  let ponder: pg.Client;
  beforeEach(async () => {
    database = await createTestDatabase();
    // The test server runs without fsync (test/globalSetup.ts): this database says otherwise, as
    // an operator's (or npm start's own) server does.
    await sql`alter database ${sql.id(database.name)} set synchronous_commit = on`.execute(
      database.db,
    );
    await createIndexedTransfers(database.db, SCHEMA, { trigger: true });
    await sql`create table ${sql.table(`${SCHEMA}._ponder_checkpoint`)} (
      chain_name text primary key, latest_checkpoint text not null)`.execute(database.db);
    await database.db.insertInto("app.deposit_addresses").values({ address: DEPOSIT }).execute();
    // A connection as Ponder opens it (ponder/dist/esm/utils/pg.js, createPool).
    ponder = new pg.Client({ connectionString: database.url });
    await ponder.connect();
    await ponder.query("set synchronous_commit = off");
  });
  afterEach(async () => {
    await ponder?.end();
    await database?.drop();
  });

  const commitSetting = async (write: string, params: unknown[] = []) => {
    await ponder.query("begin");
    try {
      await ponder.query(write, params);
      const { rows } = await ponder.query<{ setting: string }>(
        "select current_setting('synchronous_commit') as setting",
      );
      return rows[0]?.setting;
    } finally {
      await ponder.query("commit");
    }
  };

  test("a block's transaction that inserts a transfer commits synchronously, and still queues its reconcile", async () => {
    expect(
      await commitSetting(
        `insert into ${SCHEMA}.usdc_transfer (id, block_number, "from", "to", value)
         values ('0x01-0', 31, '0x${"a".repeat(40)}', $1, 150125000)`,
        [DEPOSIT],
      ),
    ).toBe("on");
    const { rows } = await ponder.query<{ key: string }>(
      "select key from graphile_worker.jobs where task_identifier = 'reconcile_deposit'",
    );
    expect(rows.map((row) => row.key)).toEqual([`reconcile:${DEPOSIT}`]);
    // The connection goes back to Ponder's own setting after the transaction.
    const after = await ponder.query<{ setting: string }>(
      "select current_setting('synchronous_commit') as setting",
    );
    expect(after.rows[0]?.setting).toBe("off");
  });

  test("a reorg's delete of a transfer commits synchronously too", async () => {
    await database.db
      .insertInto(`${SCHEMA}.usdc_transfer` as never)
      .values({ id: "0x02-0", block_number: 32, from: DEPOSIT, to: DEPOSIT, value: 1 } as never)
      .execute();
    expect(await commitSetting(`delete from ${SCHEMA}.usdc_transfer where id = '0x02-0'`)).toBe(
      "on",
    );
  });

  test("a block without a transfer of ours stays asynchronous (only its checkpoint moves)", async () => {
    expect(
      await commitSetting(
        `insert into ${SCHEMA}._ponder_checkpoint values ('base', '33')
         on conflict (chain_name) do update set latest_checkpoint = excluded.latest_checkpoint`,
      ),
    ).toBe("off");
  });
});
