import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Executor } from "../../db/database.ts";
import { queueSweep } from "../../db/queries/jobs.ts";
import { waitFor } from "../../internal/process.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createIndexedTransfers } from "../helpers/indexedTransfers.ts";

const SCHEMA = "idx_swallow_test";
const DEPOSIT = `0x${"e".repeat(40)}`;
const PAYER = `0x${"a".repeat(40)}`;

type Job = { id: string; key: string | null; locked_at: Date | null; run_at: Date };

/**
 * graphile-worker's add_job clears the key of a running job and then upserts where the keyed
 * job is not locked: a worker locking that job between the two statements makes the upsert do
 * nothing, and the job it locked started before the caller's changes were committed. The fault
 * suite's RPC outage lost a payment this way in CI (migration 0050). Here the worker's lock is
 * held open at exactly that moment: the queueing statement waits for it, then finds the job
 * taken. A run that starts after the commit must still be queued.
 */
describe("a job queued while the keyed job is being taken", () => {
  let database: TestDatabase;
  let worker: pg.Client;
  beforeEach(async () => {
    database = await createTestDatabase();
    await createIndexedTransfers(database.db, SCHEMA, { trigger: true });
    await database.db.insertInto("app.deposit_addresses").values({ address: DEPOSIT }).execute();
    worker = new pg.Client({ connectionString: database.url });
    await worker.connect();
  });
  afterEach(async () => {
    await worker?.end();
    await database?.drop();
  });

  const jobs = async (task: string): Promise<Job[]> =>
    (
      await sql<Job>`select id::text, key, locked_at, run_at from graphile_worker.jobs
        where task_identifier = ${task} order by id`.execute(database.db)
    ).rows;

  const insertTransfer = (db: Executor, id: string, value: number) =>
    sql`insert into ${sql.table(`${SCHEMA}.usdc_transfer`)} (id, block_number, "from", "to", value)
      values (${id}, 31, ${PAYER}, ${DEPOSIT}, ${value})`.execute(db);

  /**
   * Runs `write` in a transaction of its own (as Ponder writes a block) while the worker takes the
   * keyed job: the worker's lock is left uncommitted until `write` waits for it, then committed.
   */
  const writeWhileTaken = (key: string, write: (db: Executor) => Promise<unknown>) =>
    database.db.connection().execute(async (connection) => {
      await worker.query("begin");
      await worker.query(
        "update graphile_worker._private_jobs set locked_at = now(), locked_by = 'worker-test' where key = $1",
        [key],
      );
      await sql`begin`.execute(connection);
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
        connection,
      );
      const written = write(connection);
      try {
        await waitFor(
          "the write to wait for the worker's lock",
          async () =>
            (
              await sql<{ waiting: boolean }>`select wait_event_type = 'Lock' as waiting
                from pg_stat_activity where pid = ${rows[0]?.pid}`.execute(database.db)
            ).rows[0]?.waiting === true,
          { timeoutMs: 10_000, intervalMs: 20 },
        );
        await worker.query("commit");
        await written;
        await sql`commit`.execute(connection);
      } catch (error) {
        await worker.query("rollback").catch(() => {});
        await written.catch(() => {});
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
    });

  test("a transfer indexed while its address's reconcile is being taken still gets a run of its own", async () => {
    await sql`select graphile_worker.add_job('reconcile_deposit', json_build_object('address', ${DEPOSIT}::text), job_key => ${`reconcile:${DEPOSIT}`})`.execute(
      database.db,
    );
    await writeWhileTaken(`reconcile:${DEPOSIT}`, (db) => insertTransfer(db, "0x01-0", 75062500));
    const queued = await jobs("reconcile_deposit");
    expect(queued).toHaveLength(2);
    // The one taken, which cannot see the transfer, and one not taken: it runs after the commit,
    // under the key, so what is indexed next still merges into it.
    expect(queued.filter((job) => job.locked_at !== null)).toHaveLength(1);
    expect(queued.filter((job) => job.locked_at === null).map((job) => job.key)).toEqual([
      `reconcile:${DEPOSIT}`,
    ]);
  });

  test("a sweep asked for while the address's sweep job is being taken is queued all the same", async () => {
    const later = new Date(Date.now() + 6 * 3_600_000);
    await queueSweep(database.db, DEPOSIT, later);
    await writeWhileTaken(`sweep:${DEPOSIT}`, (db) => queueSweep(db, DEPOSIT));
    const queued = await jobs("sweep_deposit");
    const waiting = queued.filter((job) => job.locked_at === null);
    expect(waiting.map((job) => job.key)).toEqual([`sweep:${DEPOSIT}`]);
    expect(waiting[0]?.run_at.getTime()).toBeLessThan(later.getTime());
  });

  test("a sweep for later queued while the sweep job is being taken still gives way to a sweep for now", async () => {
    // A reconcile that reads the deposit partial defers its sweep by hours; the payment that
    // settles it a moment later asks for one now, which must not leave the deferred one behind.
    const later = new Date(Date.now() + 6 * 3_600_000);
    await queueSweep(database.db, DEPOSIT);
    await writeWhileTaken(`sweep:${DEPOSIT}`, (db) => queueSweep(db, DEPOSIT, later));
    await queueSweep(database.db, DEPOSIT);
    const waiting = (await jobs("sweep_deposit")).filter((job) => job.locked_at === null);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.run_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test("with nothing taken, a keyed job is still one job", async () => {
    await queueSweep(database.db, DEPOSIT, new Date(Date.now() + 3_600_000));
    await queueSweep(database.db, DEPOSIT);
    await insertTransfer(database.db, "0x02-0", 1);
    await insertTransfer(database.db, "0x03-0", 1);
    expect(await jobs("sweep_deposit")).toHaveLength(1);
    expect(await jobs("reconcile_deposit")).toHaveLength(1);
  });
});
