import type { Transaction } from "kysely";
import type { Database } from "../database.ts";
import { insertApiKey } from "./apiKeys.ts";
import { recordAudit } from "./audit.ts";
import { findLiveMemberByEmail } from "./members.ts";
import { claimMerchant } from "./merchants.ts";

/**
 * Claims the merchant of `email` (created if needed; its name registered when given) and
 * stores a new write key's hash for it, made by the address's own member and limited to its
 * role, audited as done by `actor`, in the caller's transaction: the claim page's POST and
 * `remit merchants add`. Throws when the address was removed from its account's team (the claim
 * page checks first: app/merchants/claim.ts).
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
  // The address's own member makes the key, limited to its role (an owner's: none, as before).
  const member = await findLiveMemberByEmail(trx, merchantId, claim.email);
  if (member?.status !== "active")
    throw new Error("the account's address is no longer an active member of its team");
  const key = await insertApiKey(trx, {
    merchantId,
    ...claim.key,
    scope: "write",
    memberId: member.id,
    role: member.role === "owner" ? null : member.role,
  });
  const audit = {
    merchantId,
    actor: claim.actor,
    keyId: null,
    memberId: member.id,
    requestId: claim.requestId,
  };
  await recordAudit(trx, { ...audit, action: "merchant.claimed", target: claim.email });
  await recordAudit(trx, { ...audit, action: "key.created", target: key.id });
  return { merchantId, keyId: key.id };
}
