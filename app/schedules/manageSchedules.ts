import { systemClock } from "../../db/clock.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import {
  findSchedule,
  insertSchedule,
  listSchedules,
  lockSchedule,
  type ScheduleChange,
  type ScheduleRow,
  scheduleInvoiceIds,
  updateSchedule,
} from "../../db/queries/invoiceSchedules.ts";
import {
  firstPeriod,
  MAX_BACKFILL_PERIODS,
  type ScheduleStatus,
  scheduledDate,
} from "../../domain/schedule.ts";
import { type MerchantActor, merchantAudit } from "../actor.ts";
import { assertPayoutWalletAllowed } from "../assertPayoutWalletAllowed.ts";
import { assertWebhookUrlAllowed } from "../assertWebhookUrlAllowed.ts";
import {
  assertNameAllowed,
  assertOwnEmail,
  assertPayoutAllowed,
  ownMerchantId,
} from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import type { CreateInvoiceResponse } from "../invoices/schema.ts";
import { ownList } from "../lists/merchantLists.ts";
import { notFound, Refusal, validationError } from "../refusal.ts";
import { calendarOf, runScheduleNow } from "./issue.ts";
import {
  type CreateScheduleInput,
  type InvoiceTemplate,
  type Schedule,
  templateCurrency,
  type UpdateScheduleInput,
  underInvoice,
} from "./schema.ts";

/** A schedule as the API (and the dashboard) shows it. */
export function presentSchedule(row: ScheduleRow): Schedule {
  return {
    schedule_id: row.id,
    status: row.status,
    interval: row.frequency,
    n: row.every_n_days,
    start_date: row.start_date,
    end_date: row.end_date,
    count: row.max_count,
    days_until_due: row.days_until_due,
    next_issue_date: row.status === "cancelled" ? null : row.next_issue_date,
    issued_count: row.issued_count,
    last_error: row.last_error,
    currency: templateCurrency(row.template),
    invoice: row.template,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * The template's own checks past its schema, as POST /api/invoices makes them: the merchant's
 * own email, the webhook URL, the payout wallet (a usable address, one of the merchant's
 * registered wallets for `byo`) and the name on the invoice (not another merchant's registered
 * name). Checked when the template is saved, so a schedule does not wait for its first period to
 * be paused for a template the API would have refused; checked again as each invoice is issued
 * (a wallet removed meanwhile pauses the schedule). Field paths are under `invoice.`.
 */
export async function assertTemplateAllowed(
  deps: Pick<CoreDeps, "db" | "allowPrivateWebhooks" | "relayerAddress">,
  actor: MerchantActor,
  template: InvoiceTemplate,
): Promise<void> {
  assertOwnEmail(actor.identity, template.merchant_email);
  const merchantId = ownMerchantId(actor.identity);
  try {
    assertWebhookUrlAllowed(deps, template.webhook_url);
    await assertPayoutWalletAllowed(deps, template.wallet_address);
    await assertPayoutAllowed(
      deps.db,
      actor.identity,
      { id: merchantId, claimedAt: null },
      template,
    );
    await assertNameAllowed(deps.db, merchantId, template.merchant_name);
  } catch (error) {
    if (!(error instanceof Refusal) || !error.fields) throw error;
    throw new Refusal(error.kind, error.code, error.message, error.fields.map(underInvoice));
  }
}

/** The actor's merchant's schedule `id`; another's, or none, is a 404. */
export async function ownSchedule(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  id: string,
): Promise<ScheduleRow> {
  const row = await findSchedule(deps.db, ownMerchantId(actor.identity), id);
  if (!row) throw notFound("invoice schedule");
  return row;
}

/** A page of the actor's schedules, newest first. */
export const ownSchedules = ownList(listSchedules);

/** The invoices the actor's schedule `id` issued, newest period first (its dashboard page). */
export async function ownScheduleInvoices(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  id: string,
): Promise<{ id: string; invoice_number: string; schedule_period: string | null }[]> {
  const row = await ownSchedule(deps, actor, id);
  return scheduleInvoiceIds(deps.db, row.id);
}

/**
 * Creates a schedule for the actor's merchant from an input whose template is already validated
 * (app/schedules/schema.ts, templateOrThrow), audited in the same transaction. A start date in
 * the past starts at the current period unless `backfill` asks for the past ones (at most
 * MAX_BACKFILL_PERIODS): domain/schedule.ts, firstPeriod.
 */
export async function createSchedule(
  deps: Pick<CoreDeps, "db" | "log" | "allowPrivateWebhooks" | "relayerAddress" | "clock">,
  actor: MerchantActor,
  input: Omit<CreateScheduleInput, "invoice">,
  template: InvoiceTemplate,
): Promise<ScheduleRow> {
  const merchantId = ownMerchantId(actor.identity);
  await assertTemplateAllowed(deps, actor, template);
  const frequency = input.interval;
  const calendar = {
    frequency,
    everyNDays: input.n ?? null,
    startDate: input.start_date,
    endDate: input.end_date ?? null,
    maxCount: input.count ?? null,
  };
  const today = await (deps.clock ?? systemClock).today();
  const first = firstPeriod(calendar, today, input.backfill === true);
  if (first.tooMany)
    throw validationError([
      {
        path: "backfill",
        code: "too_many_periods",
        message: `start_date ${calendar.startDate} has ${first.past} periods up to today; at most ${MAX_BACKFILL_PERIODS} are backfilled: start later, or leave out backfill to issue only the current period`,
      },
    ]);
  const row = await deps.db.transaction().execute(async (trx) => {
    const created = await insertSchedule(trx, {
      merchantId,
      keyId: actor.identity.kind === "key" ? actor.identity.keyId : null,
      template,
      frequency,
      everyNDays: calendar.everyNDays,
      startDate: calendar.startDate,
      endDate: calendar.endDate,
      maxCount: calendar.maxCount,
      daysUntilDue: input.days_until_due,
      nextPeriod: first.index,
      nextIssueDate: scheduledDate(calendar, first.index),
    });
    await recordAudit(trx, merchantAudit(actor, "schedule.created", created.id));
    return created;
  });
  deps.log.info("invoice schedule created", { schedule_id: row.id, interval: frequency });
  return row;
}

/** Changes a schedule of the actor's under its row lock, audited as `action` when it changed. */
async function change(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  id: string,
  action: string,
  decide: (row: ScheduleRow) => ScheduleChange | null,
): Promise<ScheduleRow> {
  await ownSchedule(deps, actor, id);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockSchedule(trx, id);
    if (!row) throw notFound("invoice schedule");
    const changes = decide(row);
    if (changes === null) return row;
    const updated = await updateSchedule(trx, id, changes);
    await recordAudit(trx, merchantAudit(actor, action, id));
    return updated;
  });
}

const refuse = (row: ScheduleRow, statuses: readonly ScheduleStatus[], verb: string) => {
  if (statuses.includes(row.status))
    throw new Refusal(
      "conflict",
      `schedule_${row.status}`,
      `a ${row.status} schedule cannot be ${verb}`,
    );
};

/**
 * Changes the template (validated already), end, count or days until due of the periods not yet
 * issued; a cancelled schedule is a 409.
 */
export async function changeSchedule(
  deps: Pick<CoreDeps, "db" | "allowPrivateWebhooks" | "relayerAddress">,
  actor: MerchantActor,
  id: string,
  input: Omit<UpdateScheduleInput, "invoice">,
  template: InvoiceTemplate | undefined,
): Promise<ScheduleRow> {
  if (template) await assertTemplateAllowed(deps, actor, template);
  return change(deps, actor, id, "schedule.updated", (current) => {
    refuse(current, ["cancelled"], "changed");
    const calendar = {
      ...calendarOf(current),
      ...(input.end_date !== undefined ? { endDate: input.end_date } : {}),
      ...(input.count !== undefined ? { maxCount: input.count } : {}),
    };
    const next = scheduledDate(calendar, current.next_period);
    // A new end or count may finish the schedule, or give a completed one periods again.
    const status: ScheduleStatus =
      next === null ? "completed" : current.status === "completed" ? "active" : current.status;
    return {
      ...(template ? { template } : {}),
      ...(input.end_date !== undefined ? { end_date: input.end_date } : {}),
      ...(input.count !== undefined ? { max_count: input.count } : {}),
      ...(input.days_until_due !== undefined ? { days_until_due: input.days_until_due } : {}),
      next_issue_date: next,
      status,
    };
  });
}

/** Pauses: nothing is issued until resumed; a paused one is unchanged, a cancelled or completed one a 409. */
export const pauseSchedule = (deps: Pick<CoreDeps, "db">, actor: MerchantActor, id: string) =>
  change(deps, actor, id, "schedule.paused", (current) => {
    refuse(current, ["cancelled", "completed"], "paused");
    return current.status === "paused" ? null : { status: "paused" };
  });

/** Resumes: the periods passed meanwhile are issued once each; a cancelled or completed one is a 409. */
export const resumeSchedule = (deps: Pick<CoreDeps, "db">, actor: MerchantActor, id: string) =>
  change(deps, actor, id, "schedule.resumed", (current) => {
    refuse(current, ["cancelled", "completed"], "resumed");
    return current.status === "active" ? null : { status: "active", last_error: null };
  });

/** Cancels for good; the invoices issued stay as they are. */
export const cancelSchedule = (deps: Pick<CoreDeps, "db">, actor: MerchantActor, id: string) =>
  change(deps, actor, id, "schedule.cancelled", (current) =>
    current.status === "cancelled" ? null : { status: "cancelled" },
  );

/** Run now: the schedule's next period issued today, by the actor. */
export async function runOwnScheduleNow(
  deps: CoreDeps,
  actor: MerchantActor,
  id: string,
): Promise<CreateInvoiceResponse> {
  const row = await ownSchedule(deps, actor, id);
  const clock = deps.clock ?? systemClock;
  const invoice = await runScheduleNow(deps, row, await clock.today(), actor);
  deps.log.info("invoice schedule run", { schedule_id: row.id, invoice_id: invoice.invoice_id });
  return invoice;
}
