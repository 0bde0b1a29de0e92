import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  SWEEP_BUSY_RETRY_MS,
  type SweepDeps,
  sweepDeposit,
} from "../../app/sweeps/sweepDeposit.ts";
import { queueSweep } from "../../db/queries/jobs.ts";
import { jobKey } from "../../domain/jobs.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

const ADDRESS = "0x97f7a6131b27af626e88efb9745ae8cf0cebe8a6";
const HOURS_6 = 6 * 3600_000;

// The fault suite once found a sweep job left six hours away on a paid invoice: a reconcile
// that read the deposit as `partial` queued its deferred sweep after the run that saw it
// `paid` had queued the sweep for now. A deferred sweep must never push an earlier one away.
describe("the one pending sweep job of a deposit address", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database?.drop();
  });

  const pending = async () =>
    (
      await sql<{
        run_at: Date;
        locked_at: Date | null;
      }>`select run_at, locked_at from graphile_worker._private_jobs where task_id = (select id from graphile_worker._private_tasks where identifier = 'sweep_deposit') order by id`.execute(
        database.db,
      )
    ).rows;

  test("a sweep for later, queued after a sweep for now, leaves it for now", async () => {
    await queueSweep(database.db, ADDRESS);
    await queueSweep(database.db, ADDRESS, new Date(Date.now() + HOURS_6));
    const jobs = await pending();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.run_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test("a sweep for now replaces a sweep for later", async () => {
    await queueSweep(database.db, ADDRESS, new Date(Date.now() + HOURS_6));
    await queueSweep(database.db, ADDRESS);
    const jobs = await pending();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.run_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test("a later deferred sweep keeps the earlier time: the job then queues itself for the rest", async () => {
    const first = new Date(Date.now() + HOURS_6);
    await queueSweep(database.db, ADDRESS, first);
    await queueSweep(database.db, ADDRESS, new Date(first.getTime() + 60_000));
    const jobs = await pending();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.run_at.getTime()).toBe(first.getTime());
  });

  test("a sweep that finds its address busy (a refund, a payout, another sweep) looks again a moment later", async () => {
    // The other run holds the address's lock; it may have decided on older facts (a sweep that
    // read the invoice partial, before the payment that settled it): nobody else sweeps it.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query("select pg_advisory_lock(hashtext($1))", [jobKey.sweep(ADDRESS)]);
      const asked: { address: string; runAt?: Date }[] = [];
      const untouched = () => {
        throw new Error("a busy address is not swept");
      };
      const before = Date.now();
      await sweepDeposit(
        {
          db: database.db,
          policy: undefined as unknown as SweepDeps["policy"],
          relay: new Proxy({}, { get: untouched }) as SweepDeps["relay"],
          queueNextRound: async (address, runAt) => {
            asked.push({ address, runAt });
          },
          log: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never,
        },
        ADDRESS,
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]?.address).toBe(ADDRESS);
      expect(asked[0]?.runAt?.getTime()).toBeGreaterThanOrEqual(before + SWEEP_BUSY_RETRY_MS);
    } finally {
      await other.end();
    }
  });
});
