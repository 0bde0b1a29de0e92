import type { Transaction } from "kysely";
import type { Database } from "../database.ts";
import { insertApiKey } from "./apiKeys.ts";
import { recordAudit } from "./audit.ts";
import { claimMerchant } from "./merchants.ts";

/**
 * Claims the merchant of `email` (created if needed; its name registered when given) and
 * stores a new write key's hash for it, audited as done by `actor`, in the caller's
 * transaction: the claim page's POST and `remit merchants add`.
 */
export async function claimWithNewKey(
  trx: Transaction<Database>,
  claim: {
    email: string;
    registered?: { name: string; nameKey: string };
    actor: "claim" | "operator";
    key: { keyHash: string; lastFour: string; name: string };
    requestId: string | null;
  },
): Promise<{ merchantId: string; keyId: string }> {
  const merchantId = await claimMerchant(trx, claim.email, claim.registered);
  const key = await insertApiKey(trx, { merchantId, ...claim.key, scope: "write" });
  const audit = { merchantId, actor: claim.actor, keyId: null, requestId: claim.requestId };
  await recordAudit(trx, { ...audit, action: "merchant.claimed", target: claim.email });
  await recordAudit(trx, { ...audit, action: "key.created", target: key.id });
  return { merchantId, keyId: key.id };
}
