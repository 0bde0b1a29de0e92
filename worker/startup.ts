import { hostname } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import type { AddJobFunction } from "graphile-worker";
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { jobKey, TASK } from "../domain/jobs.ts";
import { isAlive } from "../internal/process.ts";

/**
 * How long a lock may be held by a worker id that no heartbeat lists before that worker is
 * taken for dead. A starting worker takes jobs before its next heartbeat publishes its ids
 * (heartbeats come every 5 s), so a young unknown lock is a live sibling's, not a crashed one's.
 */
export const UNPUBLISHED_LOCK_GRACE_SECONDS = 15;

/**
 * Releases jobs still locked by workers that no longer run. A worker killed mid-job (kill -9)
 * leaves its job locked, and graphile-worker would wait hours before retrying it. Live workers
 * list their ids in app.heartbeats; a locker is dead when its process (on this host) is gone,
 * or when no heartbeat of the last minute lists it and its lock is older than the grace above.
 * Runs at start and periodically, so a sibling's crash on another host is recovered too.
 */
export async function unlockCrashedJobs(db: Db): Promise<number> {
  // Processes of this host that are gone are dead whatever their last beat says.
  const here = await db
    .selectFrom("app.heartbeats")
    .select(["instance", "pid", "worker_ids"])
    .where("instance", "like", `${hostname()}:%`)
    .execute();
  const gone = here.filter((row) => !isAlive(row.pid));
  const goneWorkers = gone.flatMap((row) => row.worker_ids);
  if (gone.length)
    await db
      .deleteFrom("app.heartbeats")
      .where(
        "instance",
        "in",
        gone.map((row) => row.instance),
      )
      .execute();
  const { rows } = await sql<{ locked_by: string }>`
    select distinct locked_by from graphile_worker._private_jobs
    where locked_by is not null
      and (
        locked_by = any(${goneWorkers}::text[])
        or (
          locked_by <> all (
            select unnest(worker_ids) from app.heartbeats where beat_at > now() - interval '1 minute'
          )
          and locked_at < now() - make_interval(secs => ${UNPUBLISHED_LOCK_GRACE_SECONDS})
        )
      )`.execute(db);
  const dead = rows.map((row) => row.locked_by);
  if (dead.length) {
    // A job whose key was re-added while it ran was superseded: graphile-worker cleared its
    // key, set its attempts to the maximum and queued a successor carrying the work. Unlocked,
    // it would sit in the queue as a permanently failed job; it is dropped instead.
    await sql`delete from graphile_worker._private_jobs
      where locked_by = any(${dead}::text[]) and key is null and attempts >= max_attempts`.execute(
      db,
    );
    await sql`select graphile_worker.force_unlock_workers(${dead}::text[])`.execute(db);
  }
  return dead.length;
}

/**
 * Waits for the indexer to create its transfer table, then installs the trigger that turns
 * every indexed transfer into a reconcile job, and reconciles everything once: transfers
 * indexed before the trigger existed (or while the worker was down) are not missed.
 */
export async function watchIndexedTransfers(
  db: Db,
  indexerSchema: string,
  addJob: AddJobFunction,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    const { rows } = await sql<{
      installed: boolean;
    }>`select app.install_transfer_trigger(${indexerSchema}) as installed`.execute(db);
    if (rows[0]?.installed) {
      await addJob(TASK.reconcileAll, {}, { jobKey: jobKey.reconcileAll() });
      return;
    }
    await delay(250, undefined, { signal }).catch(() => {});
  }
}
