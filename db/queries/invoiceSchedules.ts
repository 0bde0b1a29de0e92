import { type Selectable, sql, type Transaction } from "kysely";
import type { ScheduleStatus } from "../../domain/schedule.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import { keysetPage, type ListOrder, type ListPage, type ListResult } from "./listPage.ts";
import { merchantsOwnRow } from "./merchantsOwnRow.ts";
import { findRowWhere, rowFinder } from "./rows.ts";

export type ScheduleRow = Selectable<Database["app.invoice_schedules"]>;
export type ScheduleListRow = ScheduleRow & { list_at: string };

export type NewSchedule = {
  merchantId: string;
  keyId: string | null;
  template: Record<string, unknown>;
  frequency: ScheduleRow["frequency"];
  everyNDays: number | null;
  startDate: string;
  endDate: string | null;
  maxCount: number | null;
  daysUntilDue: number;
  /** The first period to issue: past ones skipped unless backfilled (domain/schedule.ts). */
  nextPeriod: number;
  nextIssueDate: string | null;
};

export async function insertSchedule(db: Executor, schedule: NewSchedule): Promise<ScheduleRow> {
  return db
    .insertInto("app.invoice_schedules")
    .values({
      merchant_id: schedule.merchantId,
      key_id: schedule.keyId,
      template: JSON.stringify(schedule.template),
      frequency: schedule.frequency,
      every_n_days: schedule.everyNDays,
      start_date: schedule.startDate,
      end_date: schedule.endDate,
      max_count: schedule.maxCount,
      days_until_due: schedule.daysUntilDue,
      next_period: schedule.nextPeriod,
      next_issue_date: schedule.nextIssueDate,
      ...(schedule.nextIssueDate === null ? { status: "completed" as const } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The merchant's schedule `id`, or undefined (another merchant's too: no existence oracle). */
export async function findSchedule(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<ScheduleRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  return db
    .selectFrom("app.invoice_schedules")
    .selectAll()
    .$call(merchantsOwnRow(merchantId, id))
    .executeTakeFirst();
}

/** The schedule, its row locked until the transaction ends (issuing and changes serialise on it). */
export async function lockSchedule(
  trx: Transaction<Database>,
  id: string,
): Promise<ScheduleRow | undefined> {
  return findRowWhere(trx, "app.invoice_schedules", "id", id, { forUpdate: true });
}

/** The schedule with this id, whatever its merchant (the issuing job's lookup), or undefined. */
export const findScheduleById = rowFinder("app.invoice_schedules", "id");

/** Newest first: the index invoice_schedules_merchant (merchant, created_at, id). */
const SCHEDULE_ORDER: ListOrder = {
  kind: "schedules",
  moment: "s.created_at",
  id: "s.id",
  idType: "uuid",
};

/** A page of the merchant's schedules, newest first. */
export async function listSchedules(
  db: Executor,
  merchantId: string,
  filters: { statuses?: readonly ScheduleStatus[] },
  page: ListPage,
): Promise<ListResult<ScheduleListRow>> {
  let query = db
    .selectFrom("app.invoice_schedules as s")
    .selectAll("s")
    .where("s.merchant_id", "=", merchantId);
  if (filters.statuses?.length) query = query.where("s.status", "in", filters.statuses);
  return keysetPage(query, SCHEDULE_ORDER, page);
}

export type ScheduleChange = Partial<{
  template: Record<string, unknown>;
  end_date: string | null;
  max_count: number | null;
  days_until_due: number;
  status: ScheduleStatus;
  next_issue_date: string | null;
  last_error: string | null;
}>;

export async function updateSchedule(
  db: Executor,
  id: string,
  change: ScheduleChange,
): Promise<ScheduleRow> {
  const { template, ...rest } = change;
  return db
    .updateTable("app.invoice_schedules")
    .set({
      ...rest,
      ...(template ? { template: JSON.stringify(template) } : {}),
      updated_at: sql`now()`,
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Moves the schedule past period `period` (its index), in the transaction that inserted the
 * period's invoice; false when the schedule is no longer at that period (another run issued it
 * first, or it was cancelled meanwhile), and the caller rolls back.
 */
export async function advanceSchedule(
  trx: Transaction<Database>,
  id: string,
  period: number,
  next: { date: string | null },
  allowedStatuses: readonly ScheduleStatus[],
): Promise<boolean> {
  const result = await trx
    .updateTable("app.invoice_schedules")
    .set((eb) => ({
      next_period: period + 1,
      next_issue_date: next.date,
      issued_count: eb("issued_count", "+", 1),
      last_error: null,
      updated_at: sql`now()`,
      ...(next.date === null ? { status: "completed" as const } : {}),
    }))
    .where("id", "=", id)
    .where("next_period", "=", period)
    .where("status", "in", allowedStatuses)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Active schedules whose next date is on or before `today`, oldest date first. */
export async function findDueSchedules(
  db: Executor,
  today: string,
  limit: number,
  afterId?: string,
): Promise<{ id: string }[]> {
  let query = db
    .selectFrom("app.invoice_schedules")
    .select("id")
    .where("status", "=", "active")
    .where("next_issue_date", "<=", today);
  if (afterId) query = query.where("id", ">", afterId);
  return query.orderBy("id").limit(limit).execute();
}

/** The invoices a schedule issued, newest period first. */
export async function scheduleInvoiceIds(
  db: Executor,
  scheduleId: string,
  limit = 20,
): Promise<{ id: string; invoice_number: string; schedule_period: string | null }[]> {
  return db
    .selectFrom("app.invoices")
    .select(["id", "invoice_number", "schedule_period"])
    .where("schedule_id", "=", scheduleId)
    .orderBy("schedule_period", "desc")
    .limit(limit)
    .execute();
}

/** Pauses an active schedule whose template the API now refuses, saying why. */
export async function pauseForError(db: Executor, id: string, reason: string): Promise<void> {
  await db
    .updateTable("app.invoice_schedules")
    .set({ status: "paused", last_error: reason.slice(0, 2000), updated_at: sql`now()` })
    .where("id", "=", id)
    .where("status", "=", "active")
    .execute();
}
