import type { Task } from "graphile-worker";
import { z } from "zod";
import { ApiError } from "../../api/errors.ts";
import { calendarOf, issueNextPeriod, PeriodTakenError } from "../../app/schedules/issue.ts";
import { findScheduleById, pauseForError } from "../../db/queries/invoiceSchedules.ts";
import { scheduledDate } from "../../domain/schedule.ts";
import type { WorkerDeps } from "../deps.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ schedule_id: z.uuid() });

/** Periods one job issues at most; a schedule further behind is queued again by the next tick. */
const MAX_PERIODS_PER_JOB = 100;

/**
 * Issues a schedule's due periods, oldest first, each as its own invoice dated its period: a
 * worker that was down (or a schedule resumed) issues every missed period once. Each period
 * commits with the schedule's advance, so a crash (kill -9 included) at any point leaves either
 * the invoice and the advance or neither, and a retry, a restart or a second worker issuing the
 * same period rolls back whole (PeriodTakenError): never skipped, never twice.
 *
 * A template the API now refuses (a payout wallet removed, a name taken: a 4xx) will not pass on
 * a retry either: the schedule is paused with the reason in `last_error`, for its merchant to
 * fix (PATCH) and resume. Anything else (the database, a PDF thread) throws, and graphile-worker
 * retries the job.
 */
export function issueSchedule(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed || !deps.schedules) return;
    const { app, clock } = deps.schedules;
    const today = await clock.today();
    for (let issued = 0; issued < MAX_PERIODS_PER_JOB; issued++) {
      const row = await findScheduleById(deps.db, parsed.schedule_id);
      if (row?.status !== "active") return;
      const date = scheduledDate(calendarOf(row), row.next_period);
      if (date === null || date > today) return;
      try {
        const invoice = await issueNextPeriod(app, row, { allowed: ["active"] });
        helpers.logger.info(
          `schedule ${row.id}: period ${date} issued as ${invoice.invoice_number} (${invoice.invoice_id})`,
        );
      } catch (error) {
        if (error instanceof PeriodTakenError) continue;
        if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
          const reason = `${error.code}: ${error.message}${error.fields?.length ? ` (${error.fields.map((f) => `${f.path}: ${f.message}`).join("; ")})` : ""}`;
          await pauseForError(deps.db, row.id, reason);
          helpers.logger.warn(`schedule ${row.id}: paused, period ${date} refused: ${reason}`);
          return;
        }
        throw error;
      }
    }
  };
}
