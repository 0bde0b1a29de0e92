import type { Executor } from "../../db/database.ts";
import { findLinkBySlug, type LinkRow } from "../../db/queries/links.ts";
import { findClaimedAt } from "../../db/queries/merchants.ts";
import { authenticationRequired } from "../auth/authErrors.ts";
import type { Identity } from "../auth/identity.ts";
import { notFound } from "../errors.ts";

/**
 * The payment link `slug`, if the caller may act on it: as authorizedInvoice does for invoices,
 * with a key only its own merchant's (another's is a 404, as an unknown slug), without one
 * (open mode) an unclaimed merchant's only.
 */
export async function authorizedLink(
  db: Executor,
  identity: Identity,
  slug: string,
): Promise<LinkRow> {
  const link = await findLinkBySlug(db, slug);
  if (!link) throw notFound("payment link");
  if (identity.kind === "key") {
    if (link.merchant_id !== identity.merchantId) throw notFound("payment link");
    return link;
  }
  if (await findClaimedAt(db, link.merchant_id))
    throw authenticationRequired("this payment link's merchant has an account");
  return link;
}
