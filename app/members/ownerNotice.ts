import type { Executor } from "../../db/database.ts";
import { queueAccountEmail } from "../../db/queries/emails.ts";
import { activeOwnerEmails, findMember } from "../../db/queries/members.ts";
import type { MerchantIdentity } from "../actor.ts";

/**
 * Who acted, in words for an owner's notice: the member (its address), and the key it used.
 * Looked up in the caller's transaction.
 */
export async function actedBy(db: Executor, identity: MerchantIdentity): Promise<string> {
  const member = identity.memberId
    ? await findMember(db, identity.merchantId, identity.memberId)
    : undefined;
  const who = member ? `${member.email} (${member.role})` : "the service";
  return identity.kind === "key"
    ? `${who}, with the API key ${identity.keyId}`
    : `${who}, in the dashboard`;
}

/**
 * Emails every active owner of the merchant that `what` was done by `identity`, in the caller's
 * transaction (money moves and team changes are done at an owner's word, and an owner hears of
 * each: refunds, payout wallets, members).
 */
export async function emailOwners(
  db: Executor,
  identity: MerchantIdentity,
  what: string,
): Promise<void> {
  const by = await actedBy(db, identity);
  for (const recipient of await activeOwnerEmails(db, identity.merchantId))
    await queueAccountEmail(db, { kind: "owner_notice", recipient, details: { what, by } });
}
