import { sql } from "kysely";
import { jobKey, TASK, type TaskName } from "../../domain/jobs.ts";
import type { Executor } from "../database.ts";

/**
 * The workers that hold job locks and are dead: those in `goneWorkers`, and those no heartbeat
 * of the last minute lists whose lock is older than `graceSeconds` (a young unknown lock is a
 * starting sibling's, whose heartbeat has not published it yet).
 */
export async function findDeadLockers(
  db: Executor,
  goneWorkers: string[],
  graceSeconds: number,
): Promise<string[]> {
  const { rows } = await sql<{ locked_by: string }>`
    select distinct locked_by from graphile_worker._private_jobs
    where locked_by is not null
      and (
        locked_by = any(${goneWorkers}::text[])
        or (
          locked_by <> all (
            select unnest(worker_ids) from app.heartbeats where beat_at > now() - interval '1 minute'
          )
          and locked_at < now() - make_interval(secs => ${graceSeconds})
        )
      )`.execute(db);
  return rows.map((row) => row.locked_by);
}

/**
 * Drops the jobs these workers held that were superseded while they ran: graphile-worker
 * cleared such a job's key and set its attempts to the maximum when its key was added again,
 * and queued a successor carrying the work. Unlocked, it would sit in the queue as failed.
 */
export async function deleteSupersededJobs(db: Executor, lockers: string[]): Promise<void> {
  await sql`delete from graphile_worker._private_jobs
    where locked_by = any(${lockers}::text[]) and key is null and attempts >= max_attempts`.execute(
    db,
  );
}

/** Releases every job and queue these workers hold, for another worker to take. */
export async function forceUnlockWorkers(db: Executor, lockers: string[]): Promise<void> {
  await sql`select graphile_worker.force_unlock_workers(${lockers}::text[])`.execute(db);
}

/**
 * Queues a sweep of the deposit address `address` (lowercase, as stored), now or at `runAt`,
 * as the one pending sweep job of the address (its key). A sweep now replaces a later one; a
 * sweep for later never postpones one queued sooner (`preserve_run_at`): a decision read a
 * moment before a payment settled the address must not push its sweep hours away. A sweep job
 * that runs before a partial payment is quiet long enough queues itself again for then.
 */
export async function queueSweep(db: Executor, address: string, runAt?: Date): Promise<void> {
  const mode = runAt ? "preserve_run_at" : "replace";
  await sql`select app.add_keyed_job(${TASK.sweepDeposit}, json_build_object('address', ${address}::text), ${jobKey.sweep(address)}, run_at => ${runAt ?? null}::timestamptz, job_key_mode => ${mode})`.execute(
    db,
  );
}

/**
 * Queues a job in the caller's transaction (it exists only if the transaction commits): what a
 * job that records a step and schedules the next one needs to do atomically.
 */
export async function queueJob(
  db: Executor,
  task: TaskName,
  payload: Record<string, unknown>,
  options: { jobKey: string; runAt?: Date },
): Promise<void> {
  await sql`select graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json, job_key => ${options.jobKey}, run_at => ${options.runAt ?? new Date()}::timestamptz)`.execute(
    db,
  );
}

/** How the job queue looks to /health: jobs held too long, and payment detection waiting. */
export type JobBacklog = {
  /** Jobs locked (running) for longer than the threshold given. */
  stuckJobs: number;
  /** How long the oldest due, unlocked reconcile job has been waiting; null when none is. */
  oldestWaitingReconcileMs: number | null;
};

export async function findJobBacklog(db: Executor, stuckAfterSeconds: number): Promise<JobBacklog> {
  const { rows } = await sql<{ stuck: string; waiting_ms: number | null }>`
    select
      (select count(*) from graphile_worker._private_jobs
        where locked_at < now() - make_interval(secs => ${stuckAfterSeconds})) as stuck,
      (select extract(epoch from now() - min(j.run_at)) * 1000
         from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${TASK.reconcileDeposit}
          and j.locked_at is null and j.run_at <= now() and j.attempts < j.max_attempts) as waiting_ms`.execute(
    db,
  );
  const row = rows[0];
  return {
    stuckJobs: Number(row?.stuck ?? 0),
    oldestWaitingReconcileMs: row?.waiting_ms == null ? null : Math.round(Number(row.waiting_ms)),
  };
}
