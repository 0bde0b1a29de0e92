import type { Db } from "../../db/database.ts";
import { claimWithNewKey } from "../../db/queries/accounts.ts";
import { isClaimTokenUsable, useClaimToken } from "../../db/queries/claimTokens.ts";
import { findMerchantByEmail } from "../../db/queries/merchants.ts";
import { apiKeyRecord, hashSecretToken, newApiKey } from "../../domain/apiKeys.ts";
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
 * Uses a claim link's token once: its merchant is claimed and gets a new write key, answered
 * here only (it is stored hashed); null when the link does not work.
 */
export async function claimAccount(
  db: Db,
  token: string,
  requestId: string | null,
): Promise<{ apiKey: string; email: string; keyId: string } | null> {
  const apiKey = newApiKey("write");
  const claimed = await db.transaction().execute(async (trx) => {
    const email = await useClaimToken(trx, hashSecretToken(token));
    if (!email) return null;
    const { keyId } = await claimWithNewKey(trx, {
      email,
      actor: "claim",
      key: { ...apiKeyRecord(apiKey), name: `claimed ${new Date().toISOString().slice(0, 10)}` },
      requestId,
    });
    return { email, keyId };
  });
  return claimed && { apiKey, ...claimed };
}
