import { sql } from "kysely";
import type { Db } from "../../db/database.ts";
import { setClockOffset } from "../../db/queries/testClock.ts";
import { TASK } from "../../domain/jobs.ts";
import { waitFor } from "../../internal/process.ts";

/** The tasks of schedules and reminders: a tick is over once none of their jobs is left. */
const TICK_TASKS = [TASK.issueDueSchedules, TASK.issueSchedule, TASK.sendDueReminders];

/** Moves every process's test clock (TEST_CLOCK=on) to noon UTC of `date`. */
export async function setClock(db: Db, date: string): Promise<void> {
  await setClockOffset(db, Date.parse(`${date}T12:00:00Z`) - Date.now());
}

/** The scheduler's and reminders' ticks now (what cron does every minute), and waits them out. */
export async function tick(db: Db, timeoutMs = 90_000): Promise<void> {
  await sql`select graphile_worker.add_job(${TASK.issueDueSchedules}, '{}'::json, job_key := ${TASK.issueDueSchedules}),
    graphile_worker.add_job(${TASK.sendDueReminders}, '{}'::json, job_key := ${TASK.sendDueReminders})`.execute(
    db,
  );
  await settled(db, timeoutMs);
}

/** Waits until no job of the schedules' tasks is queued or running. */
export async function settled(db: Db, timeoutMs = 90_000): Promise<void> {
  await waitFor(
    "the schedule and reminder jobs to finish",
    async () => {
      const { rows } = await sql<{ n: string; errors: string | null }>`
        select count(*)::text as n, string_agg(last_error, ' | ') as errors
        from graphile_worker.jobs where task_identifier in (${sql.join(TICK_TASKS)})`.execute(db);
      const row = rows[0];
      if (row?.errors) throw new Error(`a schedule job failed: ${row.errors}`);
      return row?.n === "0";
    },
    { timeoutMs, intervalMs: 100 },
  );
}
