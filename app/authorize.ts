import type { Executor } from "../db/database.ts";
import { findInvoice, type InvoiceRow } from "../db/queries/invoices.ts";
import { findLinkBySlug, type LinkRow } from "../db/queries/links.ts";
import { findClaimedAt, findNameOwner, type MerchantAccount } from "../db/queries/merchants.ts";
import { isPayoutWallet } from "../db/queries/payoutWallets.ts";
import {
  mayGrant,
  type Permission,
  type Role,
  type RoutePolicy,
  roleAllows,
} from "../domain/accessPolicy.ts";
import { merchantNameKey } from "../domain/merchantName.ts";
import { type Identity, isMerchant, type MerchantIdentity } from "./actor.ts";
import {
  authenticationRequired,
  insufficientRole,
  merchantMismatch,
  roleAboveYours,
} from "./authErrors.ts";
import { notFound, Refusal, validationError } from "./refusal.ts";

/**
 * Whether a merchant's caller may do what `permission` allows (domain/accessPolicy.ts): a
 * dashboard session by its member's role; a key by its own role (none: whatever its scope
 * allows, as before roles) and by its maker's role now (a key never does more than the member
 * who made it may, and a demoted member's keys are demoted with it).
 */
export const mayAct = (identity: MerchantIdentity, permission: Permission): boolean =>
  roleAllows(identity.memberRole, permission) &&
  (identity.kind !== "key" || roleAllows(identity.role, permission));

/**
 * The one role check of every route (the API's authentication middleware and the dashboard's
 * session middleware call it with the route's row): 403 `insufficient_role` when the caller's
 * role does not hold the row's permission. Anonymous callers are the access rules' business.
 */
export function assertRoleAllows(
  identity: Identity,
  policy: Pick<RoutePolicy, "permission" | "roles">,
): void {
  if (isMerchant(identity) && !mayAct(identity, policy.permission))
    throw insufficientRole(policy.roles);
}

/**
 * Whether the caller may give `role` to a key it makes or to a member: never a role that may do
 * something the caller may not (a developer cannot mint a key that refunds; only an owner makes
 * an owner). 403 `role_above_yours` otherwise.
 */
export function assertMayGrant(identity: MerchantIdentity, role: Role): void {
  const maker = identity.kind === "key" ? identity.role : null;
  if (!mayGrant(identity.memberRole, role) || !mayGrant(maker, role)) throw roleAboveYours(role);
}

/** With a key (or a dashboard session), a body's merchant_email must be the key's merchant's (403 `merchant_mismatch`). */
export function assertOwnEmail(identity: Identity, merchantEmail: string): void {
  if (isMerchant(identity) && identity.merchantEmail !== merchantEmail.toLowerCase())
    throw merchantMismatch();
}

/**
 * Whether the caller may act as `merchant`: its key, or (open mode) nobody in particular while
 * the merchant has no account. A claimed merchant without its key: 401.
 */
export function assertActsAs(
  identity: Identity,
  merchant: Pick<MerchantAccount, "id" | "claimedAt">,
): void {
  if (isMerchant(identity)) {
    if (identity.merchantId !== merchant.id) throw merchantMismatch();
    return;
  }
  if (merchant.claimedAt) throw authenticationRequired("this merchant has an account");
}

/**
 * The invoice `id`, if the caller may see it: with a key, only its own merchant's (another's is
 * a 404, as an unknown id: no existence oracle); without one (open mode), any unclaimed
 * merchant's, as the spec has it, and a claimed merchant's never (401).
 */
export async function authorizedInvoice(
  db: Executor,
  identity: Identity,
  id: string,
): Promise<InvoiceRow> {
  const invoice = await findInvoice(db, id);
  if (!invoice) throw notFound("invoice");
  if (isMerchant(identity)) {
    if (invoice.merchant_id !== identity.merchantId) throw notFound("invoice");
    return invoice;
  }
  if (await findClaimedAt(db, invoice.merchant_id))
    throw authenticationRequired("this invoice's merchant has an account");
  return invoice;
}

/**
 * The payment link `slug`, for its owner only (the `owner` rows of domain/accessPolicy.ts): a
 * slug is in every checkout URL, iframe and widget snippet, so it proves nothing, in any mode.
 * Another merchant's link is a 404, as an unknown slug (no existence oracle); no merchant at all
 * is a 401 (api/auth/authenticate.ts refuses it before this, on the routes it declares).
 */
export async function authorizedLink(
  db: Executor,
  identity: Identity,
  slug: string,
): Promise<LinkRow> {
  if (!isMerchant(identity))
    throw authenticationRequired("a payment link is managed with its merchant's key");
  const link = await findLinkBySlug(db, slug);
  if (!link || link.merchant_id !== identity.merchantId) throw notFound("payment link");
  return link;
}

/**
 * Where a claimed merchant's money may go: a byo `wallet_address` must be one of its registered
 * payout wallets (POST /api/merchant/wallets, which emails the merchant), so a stolen key cannot
 * quietly send payments elsewhere. An unclaimed merchant's (open mode) are not checked.
 */
export async function assertPayoutAllowed(
  db: Executor,
  identity: Identity,
  merchant: Pick<MerchantAccount, "id" | "claimedAt">,
  wallet: { wallet_type: string; wallet_address?: string },
): Promise<void> {
  if (wallet.wallet_type !== "byo" || !wallet.wallet_address) return;
  if (!isMerchant(identity) && !merchant.claimedAt) return;
  if (await isPayoutWallet(db, merchant.id, wallet.wallet_address)) return;
  throw validationError([
    {
      path: "wallet_address",
      code: "unregistered_wallet",
      message:
        "is not one of this merchant's payout wallets: register it first with POST /api/merchant/wallets (the merchant is emailed)",
    },
  ]);
}

/**
 * A merchant's registered name (merchants add --name) is its own: no other merchant may put it
 * (or a variant differing in case, spacing or punctuation) on an invoice or a checkout.
 */
export async function assertNameAllowed(
  db: Executor,
  merchantId: string,
  merchantName: string | undefined,
): Promise<void> {
  const key = merchantName === undefined ? "" : merchantNameKey(merchantName);
  if (key === "") return;
  const owner = await findNameOwner(db, key);
  if (owner === undefined || owner === merchantId) return;
  throw new Refusal(
    "forbidden",
    "merchant_name_reserved",
    "merchant_name is the registered name of another merchant",
    [
      {
        path: "merchant_name",
        code: "reserved",
        message: "is registered to another merchant's account",
      },
    ],
  );
}

/**
 * The merchant whose own records a caller reads or changes: a key's or a dashboard session's
 * merchant; nobody in particular may not (401).
 */
export function ownMerchantId(identity: Identity): string {
  if (!isMerchant(identity)) throw authenticationRequired("this acts on a merchant account");
  return identity.merchantId;
}
