import { randomUUID } from "node:crypto";
import { type Address, getAddress } from "viem";
import type { Executor } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import { findManagedWallet } from "../../db/queries/merchants.ts";
import {
  findManagedWalletKey,
  findRefund,
  insertRefund,
  loadRefundFacts,
  lockDepositSpending,
  queueRefundEmail,
  type RefundRow,
} from "../../db/queries/refunds.ts";
import { countUnfinishedRefunds } from "../../db/queries/relayerGas.ts";
import { hashSecretToken, newClaimToken } from "../../domain/apiKeys.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { formatUsdc, usdcToBaseUnits } from "../../domain/money.ts";
import { shareInCurrency } from "../../domain/moneyRules.ts";
import { refundNonce } from "../../domain/refundNonce.ts";
import {
  planRefund,
  type RefundFacts,
  type RefundPlan,
  refundableOf,
} from "../../domain/refundPlan.ts";
import { belowRefundMinimum, MAX_UNFINISHED_REFUNDS } from "../../domain/relayerBudget.ts";
import { openSecret, sealSecret } from "../../domain/secretBox.ts";
import type { RefundSource } from "../../domain/statuses.ts";
import { revenueOf, type SweepOwner } from "../../domain/sweepPolicy.ts";
import { type Actor, auditActor, isMerchant } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { claimOrReplay, type IdempotentRequest, rememberAnswer } from "../idempotency.ts";
import { emailOwners } from "../members/ownerNotice.ts";
import { Refusal, validationError } from "../refusal.ts";
import { reserveTransferGas } from "../relayerGas.ts";
import {
  assertNotRepeated,
  assertPayable,
  assertRefundAllowed,
  assertWalletHolds,
  senderOf,
} from "./refundGuards.ts";
import { lockedSweepOwner, type RefundTarget } from "./refundTarget.ts";
import type { CreateRefundInput } from "./schema.ts";

export { DUPLICATE_REFUND_WINDOW_MINUTES } from "./refundGuards.ts";
export type { RefundTarget } from "./refundTarget.ts";

/** The operation refunds' Idempotency-Keys are stored under (app.idempotency_keys). */
export const REFUND_OPERATION = "refund";

export type StoredRefundAnswer = { refund_id: string; sealed_claim_url?: string };

/** How long a refund claim link works: a payer may take days to answer an email. */
export const REFUND_CLAIM_TTL_DAYS = 14;

/** Why a plan was refused, in words a merchant can act on. */
function refusal(plan: Extract<RefundPlan, { ok: false }>, target: RefundTarget): Refusal {
  const available = formatUsdc(plan.available);
  switch (plan.reason) {
    case "swept_to_own_wallet":
      return new Refusal(
        "conflict",
        "refund_swept_to_own_wallet",
        plan.available > 0n
          ? `Remit holds only ${available} USDC for ${target.label}; the rest was swept to your own wallet (wallet_type byo), which Remit cannot move: refund that from your own wallet`
          : `Remit no longer holds this money: it was swept to your own wallet (wallet_type byo), which Remit cannot move. Refund the payer from your own wallet`,
      );
    case "split_needed":
      return new Refusal(
        "conflict",
        "refund_split_needed",
        `one refund is one transfer from one address: at most ${available} USDC now; refund that, then the rest`,
      );
    case "exceeds_refundable":
      return new Refusal(
        "conflict",
        "refund_exceeds_refundable",
        `at most ${available} USDC can be refunded for ${target.label} (refunds already requested count)`,
      );
    case "revenue_needs_amount":
      return new Refusal(
        "conflict",
        "nothing_to_refund",
        `nothing held for ${target.label} is the payer's to get back (no excess, or it is already refunded): a refund without an amount returns only that. To refund the merchant's revenue, give an explicit \`amount\` (at most ${available} USDC now)`,
      );
    default:
      return new Refusal(
        "conflict",
        "nothing_to_refund",
        `nothing is refundable for ${target.label}: no payment is held, or everything held is already refunded or being refunded (see its refunds)`,
      );
  }
}

/** A request's amount and destination, checked before any lock: the API's 400s and 409s. */
async function checkedRequest(
  deps: Pick<CoreDeps, "db" | "indexerSchema" | "refundLimits">,
  target: RefundTarget,
  input: CreateRefundInput,
): Promise<{ requested: bigint | undefined; minimum: bigint; to: Address | null }> {
  const requested = input.amount === undefined ? undefined : usdcToBaseUnits(input.amount);
  if (requested === 0n)
    throw validationError([
      { path: "amount", code: "not_positive", message: "must be greater than 0" },
    ]);
  const minimum = deps.refundLimits?.minimum ?? 0n;
  const tooSmall = requested === undefined ? null : belowRefundMinimum(requested, minimum);
  if (tooSmall)
    throw validationError([{ path: "amount", code: "below_minimum", message: tooSmall }]);
  let to: Address | null = input.to ?? null;
  if (input.to_sender) to = await senderOf(deps, target.depositAddress);
  if (to) await assertPayable(deps, to);
  return { requested, minimum, to };
}

/**
 * The facts a refund is planned from, the owner's revenue judged from its stored status and
 * amount (read under its row lock when refunding), so "held" means the same as for the sweep.
 */
async function refundFacts(
  db: Executor,
  target: RefundTarget,
  owner: SweepOwner,
): Promise<RefundFacts & { inCurrency: (usdc: bigint) => bigint | null }> {
  const { receivedInCurrency, ...facts } = await loadRefundFacts(
    db,
    target.owner,
    target.depositAddress,
    target.walletType,
  );
  // Priced in a currency: the merchant's share of the USDC is the share of the currency its
  // amount is of what the payments counted for (sweepPolicy settledAmount), as for the sweep.
  const priced =
    target.currency === "USDC" ? owner : { ...owner, receivedInCurrency: receivedInCurrency ?? 0n };
  // What a refund of `usdc` returns in the currency: null for an owner priced in USDC, and while
  // none of its payments is converted (nothing known in the currency yet).
  const inCurrency = (usdc: bigint) =>
    target.currency === "USDC" || !receivedInCurrency
      ? null
      : shareInCurrency(usdc, { received: facts.received, receivedInCurrency });
  return { ...facts, revenue: revenueOf(priced, facts.received), inCurrency };
}

/** The plan for these facts, or the refusal the API answers. */
function acceptedPlan(
  facts: RefundFacts,
  requested: bigint | undefined,
  minimum: bigint,
  target: RefundTarget,
): Extract<RefundPlan, { ok: true }> {
  const plan = planRefund(requested, refundableOf(facts));
  if (!plan.ok) throw refusal(plan, target);
  if (requested === undefined && plan.amount < minimum)
    throw new Refusal(
      "conflict",
      "refund_below_minimum",
      `only ${formatUsdc(plan.amount)} USDC is refundable for ${target.label}, less than the smallest refund (${formatUsdc(minimum)} USDC): its gas would cost more than it returns; refund it from your own wallet`,
    );
  return plan;
}

/** What a refund request would do, without doing it (previewRefund). */
export type RefundPreview = {
  amount: bigint;
  /** What it returns in its owner's currency (moneyRules' shareInCurrency); null in USDC. */
  amountInCurrency: bigint | null;
  source: RefundSource;
  /** The address the money leaves from (checksummed). */
  from: Address;
  /** The destination, or null: a one-time claim link (emailed to `vendorEmail` when there is one). */
  to: Address | null;
  vendorEmail: string | null;
};

/**
 * The refund createRefund would request for `input` now, read without writing or locking: the
 * same checks, the same plan (domain/refundPlan.ts) and the same refusals for amount,
 * destination, what is refundable and the unfinished-refunds cap. What a moment later may
 * change (a payment, a sweep, the hourly rate and the relayer's budgets) is judged again when
 * the refund is requested. The dashboard shows it before the merchant confirms, and its form's
 * default is this plan's amount, so "no amount" means the same there and in the API.
 */
export async function previewRefund(
  deps: Pick<CoreDeps, "db" | "indexerSchema" | "refundLimits">,
  target: RefundTarget,
  input: CreateRefundInput,
): Promise<RefundPreview> {
  const { requested, minimum, to } = await checkedRequest(deps, target, input);
  if ((await countUnfinishedRefunds(deps.db, target.owner)) >= MAX_UNFINISHED_REFUNDS)
    throw new Refusal(
      "conflict",
      "too_many_unfinished_refunds",
      `${target.label} already has ${MAX_UNFINISHED_REFUNDS} refunds on their way: wait for one to be confirmed or to fail`,
    );
  const facts = await refundFacts(deps.db, target, target.sweepOwner);
  const plan = acceptedPlan(facts, requested, minimum, target);
  let from = target.depositAddress;
  if (plan.source === "managed_wallet") {
    const wallet = await findManagedWallet(deps.db, target.merchantId);
    if (!wallet) throw refusal({ ok: false, reason: "nothing_held", available: 0n }, target);
    from = wallet;
  }
  return {
    amount: plan.amount,
    amountInCurrency: facts.inCurrency(plan.amount),
    source: plan.source,
    from: getAddress(from),
    to,
    vendorEmail: target.vendorEmail,
  };
}

/**
 * Requests a refund of an invoice or link: plans it from what Remit still controls
 * (domain/refundPlan.ts) with the owner's row and the deposit's spending locked (so two
 * refunds, or a refund and a sweep, never plan the same money), records it with its
 * deterministic nonce, and either lets the worker pay it (a destination: the row's trigger
 * queues `submit_refund`) or makes a one-time claim link, emailed to the vendor and returned
 * once. Audited. Every refund costs the relayer a transaction, so none is smaller than
 * REFUND_MINIMUM (400 `below_minimum`, or 409 `refund_below_minimum` when everything
 * refundable is less), and the caps, the merchant's rate and the relayer's gas budgets hold
 * (assertRefundAllowed, reserveRefundGas).
 */
export async function createRefund(
  deps: Pick<
    CoreDeps,
    "db" | "indexerSchema" | "payUrl" | "webhookKeys" | "relayerBudget" | "refundLimits"
  >,
  target: RefundTarget,
  input: CreateRefundInput,
  actor: Actor,
  idempotencyKey?: string,
): Promise<{ row: RefundRow; claimUrl?: string }> {
  const { requested, minimum, to } = await checkedRequest(deps, target, input);
  const token = to ? null : newClaimToken();
  const claimUrl = token ? `${deps.payUrl}/refund/${token}` : undefined;
  const id = randomUUID();
  const idempotency: IdempotentRequest | undefined = idempotencyKey
    ? { key: idempotencyKey, request: { ...target.owner, ...input } }
    : undefined;

  const answer = await deps.db.transaction().execute(async (trx) => {
    // The key first, before any other lock: a replay answers the first refund, moves nothing.
    const key = await claimOrReplay<StoredRefundAnswer>(
      trx,
      target.merchantId,
      REFUND_OPERATION,
      idempotency,
    );
    if ("replay" in key) {
      const first = await findRefund(trx, key.replay.refund_id);
      if (!first) throw new Error(`idempotent refund ${key.replay.refund_id} not found`);
      const sealed = key.replay.sealed_claim_url;
      return {
        row: first,
        claimUrl: sealed ? openSecret(sealed, deps.webhookKeys) : undefined,
      };
    }
    // Refunds of one owner serialise on its row; a refund and a sweep on the deposit's lock.
    // The owner's status read under its lock: what is revenue and what is held depends on it.
    const owner = await lockedSweepOwner(trx, target);
    await lockDepositSpending(trx, target.depositAddress);
    const now = new Date();
    if (!key.claimed)
      await assertNotRepeated(trx, target, requested, to, input.to_sender === true, now);
    await assertRefundAllowed(trx, deps.refundLimits, target, now);
    const facts = await refundFacts(trx, target, owner);
    const plan = acceptedPlan(facts, requested, minimum, target);
    await reserveTransferGas(trx, deps.relayerBudget, target.merchantId, {
      what: "refunds",
      unavailableCode: "refunds_unavailable",
      instead: "refund the payer from your own wallet",
    });
    let from = target.depositAddress;
    if (plan.source === "managed_wallet") {
      const wallet = await findManagedWalletKey(trx, target.merchantId);
      if (!wallet) throw refusal({ ok: false, reason: "nothing_held", available: 0n }, target);
      from = wallet.address.toLowerCase();
      await assertWalletHolds(trx, from, plan.amount);
    }
    const claimExpiresAt = token ? new Date(Date.now() + REFUND_CLAIM_TTL_DAYS * 86_400_000) : null;
    const refund = await insertRefund(trx, {
      id,
      invoice_id: target.owner.invoiceId ?? null,
      link_id: target.owner.linkId ?? null,
      merchant_id: target.merchantId,
      source: plan.source,
      from_address: from,
      nonce: refundNonce(getAddress(from), id),
      amount: plan.amount,
      currency: target.currency,
      amount_in_currency: facts.inCurrency(plan.amount),
      to_address: to,
      to_sender: input.to_sender === true,
      claim_token_hash: token ? hashSecretToken(token) : null,
      claim_expires_at: claimExpiresAt,
    });
    if (token && claimExpiresAt) {
      // The claim link travels sealed to the worker, which emails it; the database keeps its hash.
      if (target.vendorEmail)
        await queueRefundEmail(trx, {
          kind: "refund_claim_link",
          recipient: target.vendorEmail,
          invoiceId: target.owner.invoiceId ?? null,
          refundId: id,
          sealed: sealSecret(token, deps.webhookKeys),
        });
      // Unclaimed at expiry: the refund fails and its money is free again.
      await queueJob(
        trx,
        TASK.submitRefund,
        { refund_id: id },
        { jobKey: jobKey.refundExpiry(id), runAt: claimExpiresAt },
      );
    }
    await recordAudit(trx, {
      merchantId: target.merchantId,
      ...auditActor(actor.identity),
      action: "refund.requested",
      target: id,
      requestId: actor.requestId,
    });
    // Money out: every owner hears of it (docs/members.md).
    if (isMerchant(actor.identity))
      await emailOwners(
        trx,
        actor.identity,
        `a refund of ${formatUsdc(plan.amount)} USDC was requested for ${target.label}`,
      );
    await rememberAnswer(trx, key.claimed, {
      refund_id: id,
      ...(claimUrl ? { sealed_claim_url: sealSecret(claimUrl, deps.webhookKeys) } : {}),
    } satisfies StoredRefundAnswer);
    return { row: refund, claimUrl };
  });
  return answer.claimUrl ? answer : { row: answer.row };
}
