import { makeWorkerUtils, type WorkerUtils } from "graphile-worker";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { recheckSpec } from "../../worker/tasks/reconcile_deposit.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

const ADDRESS = `0x${"c".repeat(40)}`;
const RATE_RECHECK_MS = 15_000;

/**
 * A reconcile that waits (a transfer short of its confirmations, a payment waiting for a usable
 * rate) queues its next look under the address's key. A transfer indexed while it ran has
 * already queued a reconcile for now under that key: the look must not push it back.
 */
describe("a reconcile's next look at its address", () => {
  let database: TestDatabase;
  let utils: WorkerUtils;
  beforeEach(async () => {
    database = await createTestDatabase();
    utils = await makeWorkerUtils({ connectionString: database.url });
  });
  afterEach(async () => {
    await utils?.release();
    await database?.drop();
  });

  const waiting = async () =>
    (
      await sql<{ run_at: Date; key: string | null }>`select run_at, key from graphile_worker.jobs
        where task_identifier = ${TASK.reconcileDeposit} and locked_at is null`.execute(database.db)
    ).rows;

  /** The running reconcile: its job, keyed and taken by a worker. */
  const runningReconcile = async () => {
    await utils.addJob(
      TASK.reconcileDeposit,
      { address: ADDRESS },
      { jobKey: jobKey.reconcile(ADDRESS) },
    );
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'worker-test'
      where key = ${jobKey.reconcile(ADDRESS)}`.execute(database.db);
  };

  /** What the running reconcile queues when a payment waits for a usable rate. */
  const recheck = () =>
    utils.addJob(
      TASK.reconcileDeposit,
      { address: ADDRESS },
      recheckSpec(ADDRESS, RATE_RECHECK_MS),
    );

  test("leaves a reconcile a transfer queued meanwhile for now", async () => {
    await runningReconcile();
    // The transfer's trigger while it runs (app.add_keyed_job, as app.enqueue_reconcile calls it).
    await sql`select app.add_keyed_job(${TASK.reconcileDeposit}, json_build_object('address', ${ADDRESS}::text), ${jobKey.reconcile(ADDRESS)})`.execute(
      database.db,
    );
    const before = Date.now();
    await recheck();
    const jobs = await waiting();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.run_at.getTime()).toBeLessThanOrEqual(before);
  });

  test("with nothing queued meanwhile, looks again after its delay", async () => {
    await runningReconcile();
    const before = Date.now();
    await recheck();
    const jobs = await waiting();
    expect(jobs.map((job) => job.key)).toEqual([jobKey.reconcile(ADDRESS)]);
    expect(jobs[0]?.run_at.getTime()).toBeGreaterThanOrEqual(before + RATE_RECHECK_MS);
  });
});
