import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import {
  clearExpiredSealedTokens,
  countRecentClaimTokens,
  insertClaimToken,
  lockOneTimeLinks,
  markClaimTokenResent,
  newestLiveClaimToken,
  sentOverCapWithin,
} from "../../db/queries/claimTokens.ts";
import { queueAccountEmail } from "../../db/queries/emails.ts";
import { hashSecretToken, newClaimToken } from "../../domain/apiKeys.ts";
import {
  clientHashOf,
  decideOneTimeLink,
  ONE_TIME_LINK_TTL_MINUTES,
  type OneTimeLinkDecision,
  OVER_CAP_INTERVAL_MINUTES,
  RESENT_LINK_MIN_MINUTES_LEFT,
} from "../../domain/oneTimeLinks.ts";
import { openSecret, sealSecret } from "../../domain/secretBox.ts";
import type { OneTimeLinkPurpose } from "../../domain/statuses.ts";
import type { CoreDeps } from "../deps.ts";

export {
  ONE_TIME_LINK_TTL_MINUTES,
  ONE_TIME_LINKS_PER_EMAIL_PER_HOUR,
} from "../../domain/oneTimeLinks.ts";

/** The email kind (app.emails.kind) that carries each purpose's link (app/email/composeEmail.ts). */
const EMAIL_KIND: Record<OneTimeLinkPurpose, string> = {
  claim: "claim_link",
  dashboard_sign_in: "dashboard_sign_in_link",
};

/**
 * Emails `email` a one-time link of `purpose` at `client`'s request (its IP, as the rate limits
 * see it), in the caller's transaction, as domain/oneTimeLinks.ts decides: a new link under the
 * caps, else the newest live link again (or a new one when none is live), at most once per few
 * minutes per address. The token travels sealed to the worker, which emails it; the database
 * looks links up by hash, and keeps the token sealed only while the link may be sent again.
 * Answers what was done (for the log: the caller's answer must not depend on it).
 */
export async function emailOneTimeLink(
  trx: Transaction<Database>,
  deps: Pick<CoreDeps, "webhookKeys">,
  link: { email: string; purpose: OneTimeLinkPurpose; client: string },
): Promise<OneTimeLinkDecision> {
  const { email, purpose } = link;
  await lockOneTimeLinks(trx, email, purpose);
  await clearExpiredSealedTokens(trx);
  const clientHash = clientHashOf(link.client, deps.webhookKeys.current);
  const sent = await countRecentClaimTokens(trx, email, purpose, clientHash);
  const live = await newestLiveClaimToken(trx, email, purpose, RESENT_LINK_MIN_MINUTES_LEFT);
  const decision = decideOneTimeLink({
    sentToAddress: sent.total,
    sentForClient: sent.fromClient,
    overCapSentRecently: await sentOverCapWithin(trx, email, purpose, OVER_CAP_INTERVAL_MINUTES),
    liveLink: live !== undefined,
  });
  if (decision === "withheld") return decision;

  let token: string | undefined;
  if (decision === "resend" && live) {
    try {
      token = openSecret(live.sealed, deps.webhookKeys);
      await markClaimTokenResent(trx, live.id);
    } catch {
      // Sealed under a key since dropped from WEBHOOK_SECRET_KEY_PREVIOUS: a new link instead.
      token = undefined;
    }
  }
  if (token === undefined) {
    token = newClaimToken();
    await insertClaimToken(trx, {
      email,
      tokenHash: hashSecretToken(token),
      ttlMinutes: ONE_TIME_LINK_TTL_MINUTES,
      purpose,
      sealed: sealSecret(token, deps.webhookKeys),
      clientHash,
      overCap: decision !== "new",
    });
  }
  await queueAccountEmail(trx, {
    kind: EMAIL_KIND[purpose],
    recipient: email,
    sealed: sealSecret(token, deps.webhookKeys),
  });
  return decision;
}
