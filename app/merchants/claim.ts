import type { Db } from "../../db/database.ts";
import { claimWithNewKey } from "../../db/queries/accounts.ts";
import { isClaimTokenUsable, useClaimToken } from "../../db/queries/claimTokens.ts";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import { findLiveMemberByEmail } from "../../db/queries/members.ts";
import { findMerchantByEmail } from "../../db/queries/merchants.ts";
import { apiKeyRecord, hashSecretToken, newApiKey } from "../../domain/apiKeys.ts";
import {
  DASHBOARD_SESSION_ABSOLUTE_MINUTES,
  newDashboardSessionToken,
} from "../../domain/dashboardSession.ts";
import type { CoreDeps } from "../deps.ts";
import { emailOneTimeLink } from "./oneTimeLink.ts";

/**
 * Emails a claim link to `email` (lower-cased) when it may claim (with MERCHANT_SIGNUP=closed,
 * only an account already claimed gets one), within the per-address caps: POST
 * /api/merchants/claim and the dashboard sign-in page's claim form. Says nothing back: the
 * callers answer the same whatever happened.
 */
export async function requestClaimLink(
  deps: CoreDeps,
  email: string,
  client: string,
): Promise<void> {
  const sent = await deps.db.transaction().execute(async (trx) => {
    const merchant = await findMerchantByEmail(trx, email);
    if (deps.auth?.signup === "closed" && !merchant?.claimedAt) return false;
    return (await emailOneTimeLink(trx, deps, { email, purpose: "claim", client })) !== "withheld";
  });
  // Neither the address nor the outcome is logged as a field a log reader could mine.
  deps.log.info("claim requested", { link_sent: sent });
}

/** Whether a claim link's token still works (unknown, used and expired ones do not). */
export const isClaimLinkUsable = (db: Db, token: string): Promise<boolean> =>
  isClaimTokenUsable(db, hashSecretToken(token));

/**
 * Uses a claim link's token once: its merchant is claimed, gets a new write key, answered here
 * only (it is stored hashed), and is signed in to the dashboard: a new session, as its token
 * (for the cookie; stored hashed too). The link was emailed to the merchant's address, so using
 * it proves the address as a sign-in link does: one email, not two. Null when the link does not
 * work (unknown, used, expired), and then nothing is made.
 */
export async function claimAccount(
  db: Db,
  token: string,
  requestId: string | null,
): Promise<{ apiKey: string; email: string; keyId: string; sessionToken: string } | null> {
  const apiKey = newApiKey("write");
  const sessionToken = newDashboardSessionToken();
  const claimed = await db.transaction().execute(async (trx) => {
    const email = await useClaimToken(trx, hashSecretToken(token));
    if (!email) return null;
    // An account's address removed from its team (ownership passed on) claims nothing.
    const existing = await findMerchantByEmail(trx, email);
    const member = existing && (await findLiveMemberByEmail(trx, existing.id, email));
    if (existing && member?.status !== "active") return null;
    const { merchantId, keyId } = await claimWithNewKey(trx, {
      email,
      actor: "claim",
      key: { ...apiKeyRecord(apiKey), name: `claimed ${new Date().toISOString().slice(0, 10)}` },
      requestId,
    });
    const signedIn = await findLiveMemberByEmail(trx, merchantId, email);
    await insertDashboardSession(trx, {
      merchantId,
      memberId: signedIn?.id,
      tokenHash: hashSecretToken(sessionToken),
      absoluteMinutes: DASHBOARD_SESSION_ABSOLUTE_MINUTES,
    });
    return { email, keyId };
  });
  return claimed && { apiKey, sessionToken, ...claimed };
}
