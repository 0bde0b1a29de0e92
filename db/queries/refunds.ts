import { type ExpressionBuilder, type Selectable, sql } from "kysely";
import { jobKey } from "../../domain/jobs.ts";
import { COUNTED_REFUND_STATUS } from "../../domain/moneyRules.ts";
import type { RefundFacts } from "../../domain/refundPlan.ts";
import type { WalletType } from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";
import { queuedEmail } from "./emails.ts";
import { rowFinder, rowInserter } from "./rows.ts";
import { type TransferUpdate, transferUpdater } from "./transferProgress.ts";

export type RefundRow = Selectable<Database["app.refunds"]>;

/** Whose refund it is: an invoice's or a payment link's. */
export type RefundOwner =
  | { invoiceId: string; linkId?: undefined }
  | { linkId: string; invoiceId?: undefined };

const ownerColumn = (owner: RefundOwner): readonly ["invoice_id" | "link_id", string] =>
  owner.invoiceId !== undefined ? ["invoice_id", owner.invoiceId] : ["link_id", owner.linkId];

/**
 * Serialises every spend of a deposit address for the rest of the caller's transaction: the
 * same lock the sweep job holds (as a session lock) while it decides and submits a sweep
 * (db/queries/sweeps.ts tryLockSweeps). A refund planned under it sees every sweep recorded,
 * and a sweep decided after it sees the refund: never both spending the same funds.
 */
export async function lockDepositSpending(db: Executor, depositAddress: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${jobKey.sweep(depositAddress)}))`.execute(db);
}

/** The facts a refund of an invoice or link is planned from (domain/refundPlan.ts). */
export async function loadRefundFacts(
  db: Executor,
  owner: RefundOwner,
  depositAddress: string,
  walletType: WalletType,
): Promise<Omit<RefundFacts, "revenue"> & { receivedInCurrency: bigint | null }> {
  const [column, id] = ownerColumn(owner);
  const { rows } = await sql<{
    received: bigint;
    received_in_currency: bigint | null;
    swept: bigint;
    swept_confirmed: bigint;
    from_deposit: bigint;
    from_wallet: bigint;
  }>`
    select
      coalesce((select received from app.payment_state where deposit_address = ${depositAddress}), 0)::bigint as received,
      (select received_in_currency from app.payment_state where deposit_address = ${depositAddress})::bigint as received_in_currency,
      (select coalesce(sum(amount), 0) from app.sweeps
        where deposit_address = ${depositAddress} and status <> 'failed')::bigint as swept,
      (select coalesce(sum(amount), 0) from app.sweeps
        where deposit_address = ${depositAddress} and status = 'confirmed')::bigint as swept_confirmed,
      (select coalesce(sum(amount), 0) from app.refunds
        where ${sql.ref(column)} = ${id}::uuid and source = 'deposit' and status <> 'failed')::bigint as from_deposit,
      (select coalesce(sum(amount), 0) from app.refunds
        where ${sql.ref(column)} = ${id}::uuid and source = 'managed_wallet' and status <> 'failed')::bigint as from_wallet`.execute(
    db,
  );
  const row = rows[0];
  return {
    walletType,
    received: row?.received ?? 0n,
    swept: row?.swept ?? 0n,
    sweptConfirmed: row?.swept_confirmed ?? 0n,
    refundedFromDeposit: row?.from_deposit ?? 0n,
    refundedFromWallet: row?.from_wallet ?? 0n,
    receivedInCurrency: row?.received_in_currency ?? null,
  };
}

/** Inserts a refund, answered as stored. */
export const insertRefund = rowInserter("app.refunds");

/**
 * The latest refund of `owner` since `since`, not failed, of `amount` to the same destination
 * (an address, the payment's sender, or a claim link): what a resubmitted request repeats.
 */
export async function findRecentSameRefund(
  db: Executor,
  owner: RefundOwner,
  same: { amount: bigint; to: string | null; toSender: boolean; since: Date },
): Promise<RefundRow | undefined> {
  const [column, id] = ownerColumn(owner);
  let query = db
    .selectFrom("app.refunds")
    .selectAll()
    .where(column, "=", id)
    .where("amount", "=", same.amount)
    .where("status", "<>", "failed")
    .where("created_at", ">=", same.since)
    .where("to_sender", "=", same.toSender);
  // A claim link's refund has no address until the payer names one.
  query = same.toSender
    ? query
    : same.to
      ? query.where((eb) => eb.fn("lower", ["to_address"]), "=", same.to)
      : query.where("claim_token_hash", "is not", null);
  return query.orderBy("created_at", "desc").limit(1).executeTakeFirst();
}

/** The refund with this id, or undefined. */
export const findRefund = rowFinder("app.refunds", "id");

/** The refunds of an invoice or link, oldest first. */
export async function listRefundsOf(db: Executor, owner: RefundOwner): Promise<RefundRow[]> {
  const [column, id] = ownerColumn(owner);
  return db
    .selectFrom("app.refunds")
    .selectAll()
    .where(column, "=", id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** What refunds of an invoice or link paid out: the confirmed ones (domain/moneyRules.ts). */
export async function refundedAmountOf(db: Executor, owner: RefundOwner): Promise<bigint> {
  const [column, id] = ownerColumn(owner);
  const row = await db
    .selectFrom("app.refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<bigint>("amount"), eb.val(0n)).as("total"))
    .where(column, "=", id)
    .where("status", "=", COUNTED_REFUND_STATUS)
    .executeTakeFirst();
  return BigInt(row?.total ?? 0n);
}

/** What a refund's progress changes; `attempt` counts one more submission. */
export type RefundUpdate = TransferUpdate;

/** Updates a refund while it is in one of `onlyIf` (transferProgress.ts transferUpdater). */
export const updateRefund = transferUpdater("app.refunds");

type RefundEb = ExpressionBuilder<Database, "app.refunds">;

/** A refund waiting for its payer to name an address through the claim link: requested, none yet. */
const awaitingClaim = (eb: RefundEb) =>
  eb.and([eb("status", "=", "requested"), eb("to_address", "is", null)]);

/** The refund whose claim link has the token hash `tokenHash`, while the link works. */
const claimableBy = (tokenHash: string) => (eb: RefundEb) =>
  eb.and([
    eb("claim_token_hash", "=", tokenHash),
    awaitingClaim(eb),
    eb("claim_expires_at", ">", sql<Date>`now()`),
  ]);

/**
 * The refund a claim link names, while it can still be claimed: requested, no address yet,
 * not expired. (The page's GET: consumes nothing.)
 */
export async function findClaimableRefund(
  db: Executor,
  tokenHash: string,
): Promise<RefundRow | undefined> {
  return db.selectFrom("app.refunds").selectAll().where(claimableBy(tokenHash)).executeTakeFirst();
}

/**
 * Uses a claim link once: sets the refund's destination (its update trigger queues the
 * submission), or undefined when the link is unknown, expired, used, or its refund failed. Two
 * concurrent uses: the row lock lets exactly one through.
 */
export async function claimRefund(
  db: Executor,
  tokenHash: string,
  toAddress: string,
): Promise<RefundRow | undefined> {
  return db
    .updateTable("app.refunds")
    .set({ to_address: toAddress, claimed_at: sql<Date>`now()`, updated_at: new Date() })
    .where(claimableBy(tokenHash))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Fails a refund whose claim link expired unused, so the money it reserved is refundable (and
 * sweepable) again. Undefined when it was claimed meanwhile or is not yet expired.
 */
export async function expireRefundClaim(db: Executor, id: string): Promise<RefundRow | undefined> {
  return db
    .updateTable("app.refunds")
    .set({
      status: "failed",
      error: "the claim link expired before the payer named an address",
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .where(awaitingClaim)
    .where("claim_expires_at", "<=", sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Queues a refund email (the claim link, the refund paid or failed, a void notice) in the
 * caller's transaction; its insert trigger adds the send_email job. At most one of a kind per
 * refund and recipient. `sealed`: a secret it carries (the claim link), already sealed.
 */
export async function queueRefundEmail(
  db: Executor,
  email: {
    kind: string;
    recipient: string;
    invoiceId: string | null;
    refundId: string | null;
    eventId?: string;
    sealed?: string;
  },
): Promise<void> {
  await db
    .insertInto("app.emails")
    .values({
      ...queuedEmail({
        kind: email.kind,
        invoiceId: email.invoiceId,
        recipient: email.recipient,
        eventId: email.eventId,
      }),
      refund_id: email.refundId,
      sealed: email.sealed ?? null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The merchant a refund's owner belongs to, with what a refund email needs of both. */
export async function findRefundContext(
  db: Executor,
  refund: RefundRow,
): Promise<
  | {
      kind: "invoice";
      label: string;
      merchantEmail: string;
      vendorEmail: string | null;
      slug: string;
      id: string;
    }
  | {
      kind: "link";
      label: string;
      merchantEmail: string;
      vendorEmail: null;
      slug: string;
      id: string;
    }
  | undefined
> {
  if (refund.invoice_id) {
    const invoice = await db
      .selectFrom("app.invoices")
      .select(["id", "invoice_number", "merchant_email", "vendor_email", "sent_at", "slug"])
      .where("id", "=", refund.invoice_id)
      .executeTakeFirst();
    if (!invoice) return undefined;
    return {
      kind: "invoice",
      label: invoice.invoice_number,
      merchantEmail: invoice.merchant_email,
      vendorEmail: invoice.vendor_email,
      slug: invoice.slug,
      id: invoice.id,
    };
  }
  if (!refund.link_id) return undefined;
  const link = await db
    .selectFrom("app.payment_links")
    .select(["id", "slug", "merchant_email"])
    .where("id", "=", refund.link_id)
    .executeTakeFirst();
  if (!link) return undefined;
  return {
    kind: "link",
    label: `payment link ${link.slug}`,
    merchantEmail: link.merchant_email,
    vendorEmail: null,
    slug: link.slug,
    id: link.id,
  };
}

/** The payment link with this id (a refund's). */
export const findLinkById = rowFinder("app.payment_links", "id");

/** The managed wallet's derivation of a merchant (its index and path kind), for signing. */
export async function findManagedWalletKey(
  db: Executor,
  merchantId: string,
): Promise<{ address: string; index: number; hardened: boolean } | undefined> {
  const row = await db
    .selectFrom("app.merchants")
    .select(["managed_wallet_address", "managed_wallet_index", "managed_wallet_hardened"])
    .where("id", "=", merchantId)
    .executeTakeFirst();
  if (!row?.managed_wallet_address || row.managed_wallet_index === null) return undefined;
  return {
    address: row.managed_wallet_address,
    index: row.managed_wallet_index,
    hardened: row.managed_wallet_hardened,
  };
}
