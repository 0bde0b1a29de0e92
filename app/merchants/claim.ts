import { findMerchantByEmail } from "../../db/queries/merchants.ts";
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
