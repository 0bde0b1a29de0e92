import type { Clock } from "../../db/clock.ts";
import { findScheduleById, pauseForError } from "../../db/queries/invoiceSchedules.ts";
import { scheduledDate } from "../../domain/schedule.ts";
import type { CoreDeps } from "../deps.ts";
import type { JobLog } from "../jobLog.ts";
import type { Refusal } from "../refusal.ts";
import { calendarOf, issueNextPeriod, PeriodTakenError } from "./issue.ts";

/** Periods one job issues at most; a schedule further behind is queued again by the next tick. */
const MAX_PERIODS_PER_JOB = 100;

/**
 * Issues a schedule's due periods, oldest first, each as its own invoice dated its period: a
 * worker that was down (or a schedule resumed) issues every missed period once. Each period
 * commits with the schedule's advance, so a crash (kill -9 included) at any point leaves either
 * the invoice and the advance or neither, and a retry, a restart or a second worker issuing the
 * same period rolls back whole (PeriodTakenError): never skipped, never twice.
 *
 * A template the application now refuses for good (a payout wallet removed, a name taken: what
 * `refusedForGood` returns a refusal for, the worker's reading, worker/refusalVerdict.ts) will
 * not pass on a retry either: the schedule is paused with the reason in `last_error`, for its
 * merchant to fix (PATCH) and resume. Anything else (the database, a PDF thread) throws, and the
 * caller (the issue_schedule job) is retried.
 */
export async function issueDuePeriods(
  deps: CoreDeps,
  clock: Clock,
  scheduleId: string,
  options: { log: JobLog; refusedForGood: (error: unknown) => Refusal | undefined },
): Promise<void> {
  const { log } = options;
  const today = await clock.today();
  for (let issued = 0; issued < MAX_PERIODS_PER_JOB; issued++) {
    const row = await findScheduleById(deps.db, scheduleId);
    if (row?.status !== "active") return;
    const date = scheduledDate(calendarOf(row), row.next_period);
    if (date === null || date > today) return;
    try {
      const invoice = await issueNextPeriod(deps, row, { allowed: ["active"] });
      log.info(
        `schedule ${row.id}: period ${date} issued as ${invoice.invoice_number} (${invoice.invoice_id})`,
      );
    } catch (error) {
      if (error instanceof PeriodTakenError) continue;
      const refused = options.refusedForGood(error);
      if (refused) {
        const reason = `${refused.code}: ${refused.message}${refused.fields?.length ? ` (${refused.fields.map((f) => `${f.path}: ${f.message}`).join("; ")})` : ""}`;
        await pauseForError(deps.db, row.id, reason);
        log.warn(`schedule ${row.id}: paused, period ${date} refused: ${reason}`);
        return;
      }
      throw error;
    }
  }
}
