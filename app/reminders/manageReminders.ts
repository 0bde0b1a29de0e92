import { systemClock } from "../../db/clock.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import {
  findReminderPolicy,
  resetReminderChecks,
  saveReminderPolicy,
} from "../../db/queries/reminders.ts";
import {
  REMINDER_GAP_HOURS,
  REMINDERS_PER_CUSTOMER_PER_DAY,
  type ReminderHold,
  type ReminderPolicy,
} from "../../domain/reminders.ts";
import { auditActor, type MerchantActor, merchantAudit } from "../actor.ts";
import { authorizedInvoice, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal, RetryLaterError } from "../refusal.ts";
import { remindInvoice } from "./remind.ts";

/** The actor's merchant's reminder policy (the defaults until it changes one). */
export const ownReminderPolicy = (
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
): Promise<ReminderPolicy> => findReminderPolicy(deps.db, ownMerchantId(actor.identity));

/** A change of the policy: fields left out are unchanged; `steps` replaces every step. */
export type ReminderPolicyChange = Partial<ReminderPolicy>;

/**
 * Changes the actor's merchant's reminder policy, audited in the same transaction; its open
 * invoices are looked at again by the next sweep, under the new steps.
 */
export async function changeReminderPolicy(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  input: ReminderPolicyChange,
): Promise<ReminderPolicy> {
  const merchantId = ownMerchantId(actor.identity);
  return deps.db.transaction().execute(async (trx) => {
    const current = await findReminderPolicy(trx, merchantId);
    const next: ReminderPolicy = {
      enabled: input.enabled ?? current.enabled,
      steps: input.steps ? [...input.steps].sort((a, b) => a.days - b.days) : current.steps,
      max_reminders: input.max_reminders ?? current.max_reminders,
    };
    await saveReminderPolicy(trx, merchantId, next);
    await resetReminderChecks(trx, merchantId);
    await recordAudit(trx, merchantAudit(actor, "reminder_policy.updated", merchantId));
    return next;
  });
}

/** Why a reminder on request waits, in the words of its 429. */
function holdMessage(hold: ReminderHold): string {
  const until = hold.until.toISOString();
  if (hold.reason === "invoice_just_sent")
    return `the customer was emailed this invoice less than ${REMINDER_GAP_HOURS} hours ago: its first reminder may go at ${until}`;
  if (hold.reason === "invoice_just_reminded")
    return `this invoice was reminded less than ${REMINDER_GAP_HOURS} hours ago (by hand or automatically): the next reminder may go at ${until}`;
  return `this customer was sent ${REMINDERS_PER_CUSTOMER_PER_DAY === 1 ? "a reminder" : `${REMINDERS_PER_CUSTOMER_PER_DAY} reminders`} in the last 24 hours (at most ${REMINDERS_PER_CUSTOMER_PER_DAY} a day per customer, by hand or automatic, whichever invoice): the next may go at ${until}`;
}

/**
 * Reminds the vendor of the actor's invoice `id` now: while something is due (409
 * `nothing_due`), and within the one cadence and cap of every reminder, by hand or automatic
 * (domain/reminders.ts reminderHold: 429 `rate_limited` with Retry-After until it allows one).
 */
export async function remindNow(
  deps: Pick<CoreDeps, "db" | "log" | "clock" | "emailBudget">,
  actor: MerchantActor,
  id: string,
): Promise<{ reminderId: string; invoiceId: string; amountDue: bigint; sentAt: Date }> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const now = await (deps.clock ?? systemClock).now();
  const sent = await remindInvoice(deps.db, invoice.id, now, deps.emailBudget);
  if (sent === "nothing_due")
    throw new Refusal(
      "conflict",
      "nothing_due",
      "nothing is due on this invoice: no reminder is sent",
    );
  if ("held" in sent)
    throw new RetryLaterError(
      "rate_limited",
      "rate_limited",
      holdMessage(sent.held),
      Math.max(1, Math.ceil((sent.held.until.getTime() - now.getTime()) / 1000)),
    );
  await recordAudit(deps.db, {
    merchantId: invoice.merchant_id,
    ...auditActor(actor.identity),
    action: "invoice.reminded",
    target: invoice.id,
    requestId: actor.requestId,
  });
  deps.log.info("invoice reminder queued", {
    invoice_id: invoice.id,
    reminder_id: sent.reminderId,
  });
  return {
    reminderId: sent.reminderId,
    invoiceId: invoice.id,
    amountDue: sent.amountDue,
    sentAt: now,
  };
}
