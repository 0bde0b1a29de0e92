import { Logger, run } from "graphile-worker";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { installTransferTrigger } from "../../db/queries/indexer.ts";
import {
  advanceReconcileWatermark,
  queueReconcileCatchUp,
} from "../../db/queries/reconcileCatchUp.ts";
import { JOB_PRIORITY, TASK } from "../../domain/jobs.ts";
import { waitFor } from "../../internal/process.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createIndexedTransfers } from "../helpers/indexedTransfers.ts";

const SCHEMA = "idx_catchup_test";
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const STRANGER = address(0xdead);

type Job = { key: string; priority: number };

describe("the start-up catch-up", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
    // The catch-up reads Ponder's table with SQL only, so its shape is what matters here.
    await createIndexedTransfers(database.db, SCHEMA, { trigger: true });
  });
  afterEach(async () => {
    await database?.drop();
  });

  const addDeposits = (count: number) =>
    database.db
      .insertInto("app.deposit_addresses")
      .values(Array.from({ length: count }, (_, i) => ({ address: address(i + 1) })))
      .execute();
  /** Indexed transfers from a stranger, as the indexer writes them (the trigger fires). */
  const index = (rows: { to: string; block: number; n?: number }[]) =>
    database.db
      .insertInto(`${SCHEMA}.usdc_transfer` as never)
      .values(
        rows.map((r, i) => ({
          id: `0x${(r.n ?? i).toString(16).padStart(64, "0")}-${r.block}`,
          block_number: r.block,
          block_hash: "0x00",
          timestamp: 1_700_000_000 + r.block,
          tx_hash: `0x${(r.n ?? i).toString(16).padStart(64, "0")}`,
          log_index: 0,
          from: STRANGER,
          to: r.to,
          value: 1_000_000,
        })) as never,
      )
      .execute();
  /** What reconcile recorded: the state as if every transfer indexed to `to` were counted. */
  const recordCounted = async (to: string) => {
    const ids = await sql<{
      id: string;
    }>`select id from ${sql.table(`${SCHEMA}.usdc_transfer`)} where "to" = ${to}`.execute(
      database.db,
    );
    await database.db
      .insertInto("app.payment_state")
      .values({
        deposit_address: to,
        invoice_id: null,
        link_id: null,
        received: BigInt(ids.rows.length) * 1_000_000n,
        counted: ids.rows.map((r) => r.id).sort(),
        latest_tx_hash: null,
        latest_paid_at: null,
        updated_at: new Date(),
      })
      .execute();
  };
  const jobs = async () =>
    (
      await sql<Job>`select key, priority from graphile_worker._private_jobs where key like 'reconcile:%' order by key`.execute(
        database.db,
      )
    ).rows;
  const clearJobs = () => sql`delete from graphile_worker._private_jobs`.execute(database.db);

  test("the first catch-up of a schema queues every address with transfers, at catch-up priority, and sets the watermark", async () => {
    await addDeposits(3);
    // The trigger was not there yet (a new indexer schema): transfers with no job.
    await sql`drop trigger remit_reconcile on ${sql.table(`${SCHEMA}.usdc_transfer`)}`.execute(
      database.db,
    );
    await index([
      { to: address(1), block: 5 },
      { to: address(2), block: 9 },
      { to: STRANGER, block: 9 },
    ]);
    expect(await jobs()).toEqual([]);
    expect(await queueReconcileCatchUp(database.db, SCHEMA)).toEqual({
      queued: 2,
      from: null,
      to: 9n,
    });
    expect(await jobs()).toEqual([
      { key: `reconcile:${address(1)}`, priority: JOB_PRIORITY.catchUp },
      { key: `reconcile:${address(2)}`, priority: JOB_PRIORITY.catchUp },
    ]);
  });

  test("a later catch-up queues only transfers above the watermark and states unlike the index", async () => {
    await addDeposits(100);
    // A history of 100 paid addresses, all reconciled: nothing to do at the next start.
    await index(Array.from({ length: 100 }, (_, i) => ({ to: address(i + 1), block: 10 + i })));
    for (let i = 1; i <= 100; i++) await recordCounted(address(i));
    await queueReconcileCatchUp(database.db, SCHEMA);
    await clearJobs();
    expect(await queueReconcileCatchUp(database.db, SCHEMA)).toMatchObject({
      queued: 0,
      from: 109n,
    });

    // While no worker ran: a payment indexed with its job lost (the trigger only warns when
    // it cannot queue), and an address whose stored state lost a transfer.
    await index([{ to: address(7), block: 200, n: 1_000 }]);
    await clearJobs();
    await database.db
      .updateTable("app.payment_state")
      .set({ counted: [] })
      .where("deposit_address", "=", address(42))
      .execute();
    expect(await queueReconcileCatchUp(database.db, SCHEMA)).toEqual({
      queued: 2,
      from: 109n,
      to: 200n,
    });
    expect((await jobs()).map((job) => job.key).sort()).toEqual(
      [`reconcile:${address(42)}`, `reconcile:${address(7)}`].sort(),
    );
  });

  test("a reconcile already queued in real time keeps its priority", async () => {
    await addDeposits(2);
    await index([{ to: address(1), block: 3 }]);
    await queueReconcileCatchUp(database.db, SCHEMA);
    expect(await jobs()).toEqual([{ key: `reconcile:${address(1)}`, priority: 0 }]);
  });

  test("real-time reconciles run ahead of the catch-up's", async () => {
    await addDeposits(60);
    await sql`drop trigger remit_reconcile on ${sql.table(`${SCHEMA}.usdc_transfer`)}`.execute(
      database.db,
    );
    await index(Array.from({ length: 59 }, (_, i) => ({ to: address(i + 1), block: 1 + i })));
    await installTransferTrigger(database.db, SCHEMA);
    expect((await queueReconcileCatchUp(database.db, SCHEMA)).queued).toBe(59);
    // A payment right after the restart, indexed after the catch-up was queued.
    await index([{ to: address(60), block: 100, n: 5_000 }]);

    // A real graphile-worker runner, one slot, as the worker's payments queue runs them.
    const order: string[] = [];
    const runner = await run({
      connectionString: database.url,
      concurrency: 1,
      noHandleSignals: true,
      pollInterval: 50,
      logger: new Logger(() => () => {}),
      taskList: {
        [TASK.reconcileDeposit]: async (payload) => {
          order.push((payload as { address: string }).address);
        },
      },
    });
    try {
      await waitFor("every reconcile to run", async () => order.length === 60, {
        timeoutMs: 30_000,
      });
    } finally {
      await runner.stop();
    }
    expect(order[0]).toBe(address(60));
  });

  test("the running worker raises the watermark to the indexer's head, so the next start skips this run's transfers", async () => {
    await addDeposits(3);
    await index([{ to: address(1), block: 5 }]);
    // Nothing before the schema's first catch-up.
    await sql`create table ${sql.table(`${SCHEMA}._ponder_checkpoint`)} (chain_id bigint, latest_checkpoint text)`.execute(
      database.db,
    );
    const checkpoint = (block: number) =>
      `${"1".padStart(10, "0")}${"8453".padStart(16, "0")}${String(block).padStart(16, "0")}${"0".repeat(33)}`;
    await sql`insert into ${sql.table(`${SCHEMA}._ponder_checkpoint`)} values (8453, ${checkpoint(5)})`.execute(
      database.db,
    );
    await advanceReconcileWatermark(database.db, SCHEMA);
    expect(await database.db.selectFrom("app.reconcile_watermarks").selectAll().execute()).toEqual(
      [],
    );
    await queueReconcileCatchUp(database.db, SCHEMA);
    await clearJobs();
    // Transfers indexed while the worker ran were queued by the trigger as they came.
    await index([{ to: address(2), block: 40, n: 77 }]);
    await sql`update ${sql.table(`${SCHEMA}._ponder_checkpoint`)} set latest_checkpoint = ${checkpoint(41)}`.execute(
      database.db,
    );
    await advanceReconcileWatermark(database.db, SCHEMA);
    await recordCounted(address(1));
    await recordCounted(address(2));
    await clearJobs();
    expect(await queueReconcileCatchUp(database.db, SCHEMA)).toEqual({
      queued: 0,
      from: 41n,
      to: 40n,
    });
  });
});
