import type { Executor } from "../db/database.ts";
import { emailsToOthers, lockEmailBudget, ownEmailAddresses } from "../db/queries/emailBudget.ts";
import { type EmailBudget, emailBudgetVerdict, isOwnAddress } from "../domain/emailBudget.ts";
import { RetryLaterError } from "./refusal.ts";

const SETTING = { hour: "EMAILS_TO_OTHERS_PER_HOUR", day: "EMAILS_TO_OTHERS_PER_DAY" } as const;

/**
 * Charges one email to `recipient` against the merchant's budget of email to others
 * (domain/emailBudget.ts), in the transaction that queues it: an email to the merchant's own
 * address passes free; over budget, a 429 `email_budget_exhausted` naming the budget, with
 * Retry-After, and the caller's transaction (and its email) rolls back. The budget's lock is
 * held to the end of the transaction, so concurrent requests count each other. None: no budget
 * (tests of the application alone).
 */
export async function chargeEmailToOthers(
  trx: Executor,
  budget: EmailBudget | undefined,
  merchantId: string,
  recipient: string,
): Promise<void> {
  if (!budget) return;
  const own = await ownEmailAddresses(trx, merchantId);
  if (isOwnAddress(recipient, [own.account, own.notice])) return;
  await lockEmailBudget(trx, merchantId);
  const sent = await emailsToOthers(trx, merchantId, [
    own.account,
    ...(own.notice ? [own.notice] : []),
  ]);
  const verdict = emailBudgetVerdict(sent, budget);
  if (verdict.allowed) return;
  throw new RetryLaterError(
    "rate_limited",
    "email_budget_exhausted",
    `this account has had ${verdict.limit} emails sent to addresses other than its own in the last ${verdict.window} (${SETTING[verdict.window]}); nothing was sent: retry after ${verdict.retryAfterSeconds} s`,
    verdict.retryAfterSeconds,
  );
}
