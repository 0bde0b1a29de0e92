import { hostname } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import type { AddJobFunction } from "graphile-worker";
import type { Db } from "../db/database.ts";
import { deleteHeartbeats, findHeartbeatsOfHost } from "../db/queries/heartbeats.ts";
import { installTransferTrigger } from "../db/queries/indexer.ts";
import { deleteSupersededJobs, findDeadLockers, forceUnlockWorkers } from "../db/queries/jobs.ts";
import { jobKey, TASK } from "../domain/jobs.ts";
import { isAlive } from "../internal/process.ts";

/**
 * How long a lock may be held by a worker id that no heartbeat lists before that worker is
 * taken for dead. A starting worker takes jobs before its next heartbeat publishes its ids
 * (heartbeats come every 5 s), so a young unknown lock is a live sibling's, not a crashed one's.
 */
const UNPUBLISHED_LOCK_GRACE_SECONDS = 15;

/**
 * Releases jobs still locked by workers that no longer run. A worker killed mid-job (kill -9)
 * leaves its job locked, and graphile-worker would wait hours before retrying it. Live workers
 * list their ids in app.heartbeats; a locker is dead when its process (on this host) is gone,
 * or when no heartbeat of the last minute lists it and its lock is older than the grace above.
 * Runs at start and periodically, so a sibling's crash on another host is recovered too.
 */
export async function unlockCrashedJobs(db: Db): Promise<number> {
  // Processes of this host that are gone are dead whatever their last beat says.
  const here = await findHeartbeatsOfHost(db, hostname());
  const gone = here.filter((row) => !isAlive(row.pid));
  await deleteHeartbeats(
    db,
    gone.map((row) => row.instance),
  );
  const dead = await findDeadLockers(
    db,
    gone.flatMap((row) => row.worker_ids),
    UNPUBLISHED_LOCK_GRACE_SECONDS,
  );
  if (dead.length) {
    // Superseded jobs would sit in the queue as permanently failed ones once unlocked.
    await deleteSupersededJobs(db, dead);
    await forceUnlockWorkers(db, dead);
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
    if (await installTransferTrigger(db, indexerSchema)) {
      await addJob(
        TASK.reconcileAll,
        { indexerSchema },
        { jobKey: jobKey.reconcileAll(indexerSchema) },
      );
      return;
    }
    await delay(250, undefined, { signal }).catch(() => {});
  }
}
