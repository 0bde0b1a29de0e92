import { systemClock } from "../../db/clock.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { findReminderPolicy, saveReminderPolicy } from "../../db/queries/reminders.ts";
import { MANUAL_REMINDERS_PER_HOUR, type ReminderPolicy } from "../../domain/reminders.ts";
import { auditActor, type MerchantActor } from "../actor.ts";
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

/** Changes the actor's merchant's reminder policy, audited in the same transaction. */
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
    await recordAudit(trx, {
      merchantId,
      ...auditActor(actor.identity),
      action: "reminder_policy.updated",
      target: merchantId,
      requestId: actor.requestId,
    });
    return next;
  });
}

/**
 * Reminds the vendor of the actor's invoice `id` now: while something is due (409
 * `nothing_due`), at most MANUAL_REMINDERS_PER_HOUR an hour per invoice (429, retry later).
 */
export async function remindNow(
  deps: Pick<CoreDeps, "db" | "log" | "clock">,
  actor: MerchantActor,
  id: string,
): Promise<{ reminderId: string; invoiceId: string; amountDue: bigint; sentAt: Date }> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const now = await (deps.clock ?? systemClock).now();
  const sent = await remindInvoice(deps.db, invoice.id, null, now, MANUAL_REMINDERS_PER_HOUR);
  if (typeof sent === "object" && "limited" in sent)
    throw new RetryLaterError(
      429,
      "rate_limited",
      `at most ${MANUAL_REMINDERS_PER_HOUR} reminders an hour per invoice`,
      Math.max(1, Math.ceil((sent.freeAt.getTime() - Date.now()) / 1000)),
    );
  if (typeof sent !== "object")
    throw new Refusal(409, "nothing_due", "nothing is due on this invoice: no reminder is sent");
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
