import {
  advanceSchedule,
  findScheduleById,
  type ScheduleRow,
} from "../../db/queries/invoiceSchedules.ts";
import {
  invoiceDates,
  type ScheduleCalendar,
  type ScheduleStatus,
  scheduledDate,
} from "../../domain/schedule.ts";
import type { Actor, Identity } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { createInvoice } from "../invoices/createInvoice.ts";
import { type CreateInvoiceResponse, CreateInvoiceSchema } from "../invoices/schema.ts";
import { Refusal } from "../refusal.ts";

/** Another run issued the period first (or the schedule changed state meanwhile). */
export class PeriodTakenError extends Error {
  constructor(scheduleId: string, period: number) {
    super(`schedule ${scheduleId}: period ${period} was issued by another run`);
  }
}

export const calendarOf = (row: ScheduleRow): ScheduleCalendar => ({
  frequency: row.frequency,
  everyNDays: row.every_n_days,
  startDate: row.start_date,
  endDate: row.end_date,
  maxCount: row.max_count,
});

/**
 * Who issues a schedule's invoices: the key that created it (audited as that key), acting for
 * the schedule's merchant.
 */
export function scheduleActor(row: ScheduleRow, requestId: string | null): Actor {
  const merchantEmail = String(row.template.merchant_email).toLowerCase();
  // The service issues what the merchant scheduled: no member acts, with the owner's reach.
  const member = { memberId: null, memberRole: "owner" } as const;
  const identity: Identity = row.key_id
    ? {
        kind: "key",
        keyId: row.key_id,
        scope: "write",
        merchantId: row.merchant_id,
        merchantEmail,
        role: null,
        ...member,
      }
    : {
        kind: "session",
        sessionId: "schedule",
        merchantId: row.merchant_id,
        merchantEmail,
        memberEmail: merchantEmail,
        ...member,
      };
  return { identity, requestId };
}

const isPeriodConflict = (error: unknown) =>
  (error as { code?: string }).code === "23505" &&
  (error as { constraint?: string }).constraint === "invoices_one_per_schedule_period";

/**
 * Issues the schedule's next period as an ordinary invoice, through POST /api/invoices' own code
 * path (numbering, PDF, deposit address, vendor email, audit), with the schedule moved past the
 * period in the same transaction. The invoice is dated `issueDate` (run now: today) or the
 * period's own date. The (schedule, period) unique index and the advance's check of the period
 * make a second run of the same period, in any process, roll back whole: PeriodTakenError.
 */
export async function issueNextPeriod(
  deps: CoreDeps,
  row: ScheduleRow,
  options: {
    issueDate?: string;
    allowed: readonly ScheduleStatus[];
    /** Who issues it: the caller of run-now; otherwise the schedule's own key. */
    actor?: Actor;
  },
): Promise<CreateInvoiceResponse> {
  const calendar = calendarOf(row);
  const period = row.next_period;
  const date = scheduledDate(calendar, period);
  if (date === null)
    throw new Refusal(
      "conflict",
      "schedule_completed",
      "this schedule has no period left to issue",
    );
  const parsed = CreateInvoiceSchema.safeParse({
    ...row.template,
    ...invoiceDates(options.issueDate ?? date, row.days_until_due),
  });
  if (!parsed.success)
    throw new Refusal(
      "invalid",
      "validation_failed",
      "the schedule's template no longer validates",
    );
  try {
    const actor = options.actor ?? scheduleActor(row, null);
    return await createInvoice(deps, parsed.data, undefined, actor, {
      scheduleId: row.id,
      periodDate: date,
      inTransaction: async (trx) => {
        const next = scheduledDate(calendar, period + 1);
        if (!(await advanceSchedule(trx, row.id, period, { date: next }, options.allowed)))
          throw new PeriodTakenError(row.id, period);
      },
    });
  } catch (error) {
    if (isPeriodConflict(error)) throw new PeriodTakenError(row.id, period);
    throw error;
  }
}

/**
 * Run now: the next period issued today, whatever its date ("bill this customer today"); an
 * active or paused schedule only. A period another run (or the worker) is issuing at the same
 * moment is a 409 `schedule_busy`: the caller sees the schedule moved and decides whether to run
 * again, rather than this request silently issuing the period after.
 */
export async function runScheduleNow(
  deps: CoreDeps,
  row: ScheduleRow,
  today: string,
  actor: Actor,
): Promise<CreateInvoiceResponse> {
  if (row.status === "cancelled")
    throw new Refusal("conflict", "schedule_cancelled", "this schedule is cancelled");
  if (row.status === "completed")
    throw new Refusal(
      "conflict",
      "schedule_completed",
      "this schedule has no period left to issue",
    );
  try {
    return await issueNextPeriod(deps, row, {
      issueDate: today,
      allowed: ["active", "paused"],
      actor,
    });
  } catch (error) {
    if (!(error instanceof PeriodTakenError)) throw error;
    const fresh = await findScheduleById(deps.db, row.id);
    if (fresh?.status === "cancelled")
      throw new Refusal("conflict", "schedule_cancelled", "this schedule is cancelled");
    throw new Refusal(
      "conflict",
      "schedule_busy",
      "another run issued this schedule's next period at the same moment; get the schedule and run again if another invoice is wanted",
    );
  }
}
