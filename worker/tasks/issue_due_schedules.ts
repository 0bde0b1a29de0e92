import type { Task } from "graphile-worker";
import { sql } from "kysely";
import { JOB_KEY_PREFIX, TASK } from "../../domain/jobs.ts";
import type { WorkerDeps } from "../deps.ts";

/**
 * The scheduler's tick (every minute, graphile-worker cron; tests queue it after moving the test
 * clock): one issue_schedule job per active schedule with a period due today, in one statement.
 * The job key collapses a tick's job into one still waiting for the same schedule, so ticks
 * during a long run (10,000 schedules) queue nothing twice. Which periods are issued, and that
 * each is issued once, is issue_schedule's business, not the tick's.
 */
export function issueDueSchedules(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    if (!deps.schedules) return;
    const today = await deps.schedules.clock.today();
    const result = await sql<{ queued: string }>`
      select count(graphile_worker.add_job(
        ${TASK.issueSchedule},
        json_build_object('schedule_id', s.id),
        job_key := ${JOB_KEY_PREFIX.schedule} || s.id::text,
        job_key_mode := 'preserve_run_at'
      ))::text as queued
      from app.invoice_schedules s
      where s.status = 'active' and s.next_issue_date <= ${today}::date`.execute(deps.db);
    const queued = Number(result.rows[0]?.queued ?? 0);
    if (queued > 0) helpers.logger.info(`schedules due on ${today}: ${queued} queued`);
  };
}
