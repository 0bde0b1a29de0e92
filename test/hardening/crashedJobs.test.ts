import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { unlockCrashedJobs } from "../../worker/startup.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

type JobRow = { id: string; key: string | null; attempts: number; locked_by: string | null };

describe("jobs left locked by a worker that died", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database?.drop();
  });

  const addJob = (key: string) =>
    sql`select graphile_worker.add_job('reconcile_deposit', '{}'::json, job_key => ${key})`.execute(
      database.db,
    );
  const jobs = async () =>
    (
      await sql<JobRow>`select id::text, key, attempts, locked_by from graphile_worker._private_jobs order by id`.execute(
        database.db,
      )
    ).rows;
  /** What graphile-worker does when a worker takes the job: lock it and count the attempt. */
  const takeAll = (worker: string, secondsAgo = 60) =>
    sql`update graphile_worker._private_jobs set locked_by = ${worker}, locked_at = now() - make_interval(secs => ${secondsAgo}), attempts = attempts + 1`.execute(
      database.db,
    );
  const beat = (instance: string, pid: number, workerIds: string[]) =>
    database.db
      .insertInto("app.heartbeats")
      .values({ component: "worker", instance, pid, worker_ids: workerIds })
      .execute();

  test("a job taken by a dead worker is released for another attempt", async () => {
    await addJob("reconcile:a");
    await takeAll("worker-dead");
    expect(await unlockCrashedJobs(database.db)).toBe(1);
    const [job] = await jobs();
    expect(job).toMatchObject({ key: "reconcile:a", attempts: 1, locked_by: null });
  });

  test("a job taken a moment ago by a worker whose heartbeat does not list it yet is left alone", async () => {
    // A sibling that just started: it takes jobs before its next beat publishes its ids.
    await addJob("reconcile:a");
    await takeAll("worker-starting", 1);
    expect(await unlockCrashedJobs(database.db)).toBe(0);
    expect((await jobs())[0]).toMatchObject({ locked_by: "worker-starting" });
  });

  test("a job of a live sibling listed in a fresh heartbeat is left alone", async () => {
    await addJob("reconcile:a");
    await takeAll("worker-live", 600);
    await beat(`${hostname()}:${process.pid}`, process.pid, ["worker-live"]);
    expect(await unlockCrashedJobs(database.db)).toBe(0);
    expect((await jobs())[0]).toMatchObject({ locked_by: "worker-live" });
  });

  test("a job of a process of this host that is gone is released at once", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    await addJob("reconcile:a");
    await takeAll("worker-killed", 0);
    await beat(`${hostname()}:${dead}`, dead, ["worker-killed"]);
    expect(await unlockCrashedJobs(database.db)).toBe(1);
    expect((await jobs())[0]).toMatchObject({ key: "reconcile:a", locked_by: null });
  });

  test("a job superseded while it ran (its key added again) is dropped, its successor kept", async () => {
    await addJob("reconcile:a");
    await takeAll("worker-dead");
    // New information while it ran: graphile-worker clears the running job's key, sets its
    // attempts to the maximum, and queues a successor under the key.
    await addJob("reconcile:a");
    const before = await jobs();
    expect(before).toHaveLength(2);
    expect(before.find((job) => job.locked_by)?.attempts).toBe(25);

    await unlockCrashedJobs(database.db);
    const after = await jobs();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ key: "reconcile:a", attempts: 0, locked_by: null });
  });
});
