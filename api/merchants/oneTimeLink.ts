import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import { countRecentClaimTokens, insertClaimToken } from "../../db/queries/claimTokens.ts";
import { queueAccountEmail } from "../../db/queries/emails.ts";
import { hashSecretToken, newClaimToken } from "../../domain/apiKeys.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import type { OneTimeLinkPurpose } from "../../domain/statuses.ts";
import type { AppDeps } from "../deps.ts";

/** How long a one-time link (a claim link, a dashboard sign-in link) works. */
export const ONE_TIME_LINK_TTL_MINUTES = 30;
/** Links of one purpose to one address per hour, at most: nobody can flood a mailbox through Remit. */
export const ONE_TIME_LINKS_PER_EMAIL_PER_HOUR = 5;

/** The email kind (app.emails.kind) that carries each purpose's link (worker/tasks/send_email.ts). */
const EMAIL_KIND: Record<OneTimeLinkPurpose, string> = {
  claim: "claim_link",
  dashboard_sign_in: "dashboard_sign_in_link",
};

/**
 * Emails `email` a new one-time link of `purpose`, in the caller's transaction, unless the
 * address already had ONE_TIME_LINKS_PER_EMAIL_PER_HOUR of them this hour. The token travels
 * sealed to the worker, which emails it; the database keeps only its hash. Answers whether a
 * link was sent (for the log: the caller's answer must not depend on it).
 */
export async function emailOneTimeLink(
  trx: Transaction<Database>,
  deps: Pick<AppDeps, "webhookKeys">,
  link: { email: string; purpose: OneTimeLinkPurpose },
): Promise<boolean> {
  const { email, purpose } = link;
  if ((await countRecentClaimTokens(trx, email, purpose)) >= ONE_TIME_LINKS_PER_EMAIL_PER_HOUR)
    return false;
  const token = newClaimToken();
  await insertClaimToken(trx, {
    email,
    tokenHash: hashSecretToken(token),
    ttlMinutes: ONE_TIME_LINK_TTL_MINUTES,
    purpose,
  });
  await queueAccountEmail(trx, {
    kind: EMAIL_KIND[purpose],
    recipient: email,
    sealed: sealSecret(token, deps.webhookKeys),
  });
  return true;
}
