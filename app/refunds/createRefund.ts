import { randomUUID } from "node:crypto";
import { type Address, getAddress, zeroAddress } from "viem";
import type { Executor } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import { lockInvoiceByDepositAddress } from "../../db/queries/invoices.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import { lockLinkByDepositAddress } from "../../db/queries/links.ts";
import { findManagedWallet } from "../../db/queries/merchants.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import {
  findManagedWalletKey,
  insertRefund,
  loadRefundFacts,
  lockDepositSpending,
  queueRefundEmail,
  type RefundOwner,
  type RefundRow,
} from "../../db/queries/refunds.ts";
import {
  countUnfinishedRefunds,
  lockMerchantRefunds,
  lockRelayerGasBudget,
  merchantRefundsSince,
  relayerSpend,
} from "../../db/queries/relayerGas.ts";
import { hashSecretToken, newClaimToken } from "../../domain/apiKeys.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { formatUsdc, usdcToBaseUnits } from "../../domain/money.ts";
import { refundNonce } from "../../domain/refundNonce.ts";
import { planRefund, type RefundPlan, refundableOf } from "../../domain/refundPlan.ts";
import { secondsUntilNextUtcDay, utcDayStart } from "../../domain/relayedAuthorization.ts";
import {
  belowRefundMinimum,
  MAX_UNFINISHED_REFUNDS,
  overRelayerBudget,
  REFUND_GAS_RESERVE,
  relayerBudgetMessage,
  secondsUntilWindowFrees,
} from "../../domain/relayerBudget.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import type { RefundSource, WalletType } from "../../domain/statuses.ts";
import { type Actor, auditActor } from "../actor.ts";
import type { CoreDeps, RefundLimits } from "../deps.ts";
import { Refusal, RetryLaterError, validationError } from "../refusal.ts";
import type { CreateRefundInput } from "./schema.ts";

/** How long a refund claim link works: a payer may take days to answer an email. */
export const REFUND_CLAIM_TTL_DAYS = 14;

const HOUR_MS = 3_600_000;

/** What is being refunded: an invoice or a payment link, as the refund sees it. */
export type RefundTarget = {
  owner: RefundOwner;
  merchantId: string;
  depositAddress: string;
  walletType: WalletType;
  /** An invoice's vendor, emailed the claim link; a link has none. */
  vendorEmail: string | null;
  label: string;
};

/** Why a plan was refused, in words a merchant can act on. */
function refusal(plan: Extract<RefundPlan, { ok: false }>, target: RefundTarget): Refusal {
  const available = formatUsdc(plan.available);
  switch (plan.reason) {
    case "swept_to_own_wallet":
      return new Refusal(
        409,
        "refund_swept_to_own_wallet",
        plan.available > 0n
          ? `Remit holds only ${available} USDC for ${target.label}; the rest was swept to your own wallet (wallet_type byo), which Remit cannot move: refund that from your own wallet`
          : `Remit no longer holds this money: it was swept to your own wallet (wallet_type byo), which Remit cannot move. Refund the payer from your own wallet`,
      );
    case "split_needed":
      return new Refusal(
        409,
        "refund_split_needed",
        `one refund is one transfer from one address: at most ${available} USDC now; refund that, then the rest`,
      );
    case "exceeds_refundable":
      return new Refusal(
        409,
        "refund_exceeds_refundable",
        `at most ${available} USDC can be refunded for ${target.label} (refunds already requested count)`,
      );
    default:
      return new Refusal(
        409,
        "nothing_to_refund",
        `nothing is refundable for ${target.label}: no payment is held, or everything held is already refunded or being refunded (see its refunds)`,
      );
  }
}

/** A destination Remit must not pay: nobody could spend it, or it is Remit's own. */
async function assertPayable(deps: Pick<CoreDeps, "db">, to: Address): Promise<void> {
  const lower = to.toLowerCase();
  const refused =
    lower === zeroAddress
      ? "is the zero address"
      : lower === USDC_ADDRESS.toLowerCase()
        ? "is USDC's own contract"
        : (await findDerivationIndex(deps.db, lower)) !== undefined
          ? "is one of Remit's deposit addresses"
          : null;
  if (refused) throw validationError([{ path: "to", code: "not_allowed", message: refused }]);
}

/** The one address the counted payments came from, for `to_sender`. */
async function senderOf(
  deps: Pick<CoreDeps, "db" | "indexerSchema">,
  depositAddress: string,
): Promise<Address> {
  const [state, transfers] = await Promise.all([
    loadPaymentState(deps.db, depositAddress),
    indexedTransfersTo(deps.db, deps.indexerSchema, depositAddress),
  ]);
  const senders = new Set(
    transfers.filter((t) => state.counted.includes(t.id)).map((t) => t.from.toLowerCase()),
  );
  const [only] = senders;
  if (senders.size !== 1 || !only)
    throw new Refusal(
      409,
      "sender_ambiguous",
      senders.size === 0
        ? "no counted payment to take the sender from"
        : `the payments came from ${senders.size} addresses: give the refund's \`to\``,
    );
  return getAddress(only);
}

/**
 * What makes a refund worth the relayer's gas, judged with the owner's row and the deposit
 * locked, so concurrent requests see each other: at most MAX_UNFINISHED_REFUNDS unfinished per
 * invoice or link (409 `too_many_unfinished_refunds`), at most `perMerchantPerHour` per merchant
 * and hour, whoever asks (429 `rate_limited`, under the merchant's lock).
 */
async function assertRefundAllowed(
  trx: Executor,
  limits: RefundLimits | undefined,
  target: RefundTarget,
  now: Date,
): Promise<void> {
  if ((await countUnfinishedRefunds(trx, target.owner)) >= MAX_UNFINISHED_REFUNDS)
    throw new Refusal(
      409,
      "too_many_unfinished_refunds",
      `${target.label} already has ${MAX_UNFINISHED_REFUNDS} refunds on their way: wait for one to be confirmed or to fail`,
    );
  if (!limits?.perMerchantPerHour) return;
  await lockMerchantRefunds(trx, target.merchantId);
  const recent = await merchantRefundsSince(
    trx,
    target.merchantId,
    new Date(now.getTime() - HOUR_MS),
  );
  if (recent.count >= limits.perMerchantPerHour) {
    const wait = recent.oldest ? secondsUntilWindowFrees(recent.oldest, HOUR_MS, now) : 60;
    throw new RetryLaterError(
      429,
      "rate_limited",
      `at most ${limits.perMerchantPerHour} refunds per merchant per hour; retry after ${wait} s`,
      wait,
    );
  }
}

/**
 * Reserves the refund's gas (REFUND_GAS_RESERVE) in the relayer's daily budgets, the service's
 * and the merchant's, under the budget's lock (taken last: never before a row or deposit lock):
 * 429 `relayer_budget_exhausted` with `Retry-After` (seconds to midnight UTC) when either is
 * spent. The refund row inserted in the same transaction is the reservation.
 */
async function reserveRefundGas(
  trx: Executor,
  budget: CoreDeps["relayerBudget"],
  merchantId: string,
  now: Date,
): Promise<void> {
  if (!budget) return;
  if (budget.daily === 0n)
    throw new Refusal(
      409,
      "refunds_unavailable",
      "this service's relayer pays for no refunds (RELAYER_DAILY_GAS_BUDGET=0): refund the payer from your own wallet",
    );
  await lockRelayerGasBudget(trx);
  const spent = await relayerSpend(trx, utcDayStart(now), REFUND_GAS_RESERVE, merchantId);
  const over = overRelayerBudget(spent, REFUND_GAS_RESERVE, budget);
  if (over)
    throw new RetryLaterError(
      429,
      "relayer_budget_exhausted",
      relayerBudgetMessage(over, "refunds", "retry then, or refund the payer from your own wallet"),
      secondsUntilNextUtcDay(now),
    );
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

/** The plan for these facts, or the refusal the API answers. */
function acceptedPlan(
  facts: Parameters<typeof refundableOf>[0],
  requested: bigint | undefined,
  minimum: bigint,
  target: RefundTarget,
): Extract<RefundPlan, { ok: true }> {
  const plan = planRefund(requested, refundableOf(facts));
  if (!plan.ok) throw refusal(plan, target);
  if (requested === undefined && plan.amount < minimum)
    throw new Refusal(
      409,
      "refund_below_minimum",
      `only ${formatUsdc(plan.amount)} USDC is refundable for ${target.label}, less than the smallest refund (${formatUsdc(minimum)} USDC): its gas would cost more than it returns; refund it from your own wallet`,
    );
  return plan;
}

/** What a refund request would do, without doing it (previewRefund). */
export type RefundPreview = {
  amount: bigint;
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
      409,
      "too_many_unfinished_refunds",
      `${target.label} already has ${MAX_UNFINISHED_REFUNDS} refunds on their way: wait for one to be confirmed or to fail`,
    );
  const facts = await loadRefundFacts(
    deps.db,
    target.owner,
    target.depositAddress,
    target.walletType,
  );
  const plan = acceptedPlan(facts, requested, minimum, target);
  let from = target.depositAddress;
  if (plan.source === "managed_wallet") {
    const wallet = await findManagedWallet(deps.db, target.merchantId);
    if (!wallet) throw refusal({ ok: false, reason: "nothing_held", available: 0n }, target);
    from = wallet;
  }
  return {
    amount: plan.amount,
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
): Promise<{ row: RefundRow; claimUrl?: string }> {
  const { requested, minimum, to } = await checkedRequest(deps, target, input);
  const token = to ? null : newClaimToken();
  const id = randomUUID();

  const row = await deps.db.transaction().execute(async (trx) => {
    // Refunds of one owner serialise on its row; a refund and a sweep on the deposit's lock.
    if (target.owner.invoiceId) await lockInvoiceByDepositAddress(trx, target.depositAddress);
    else await lockLinkByDepositAddress(trx, target.depositAddress);
    await lockDepositSpending(trx, target.depositAddress);
    const now = new Date();
    await assertRefundAllowed(trx, deps.refundLimits, target, now);
    const facts = await loadRefundFacts(
      trx,
      target.owner,
      target.depositAddress,
      target.walletType,
    );
    const plan = acceptedPlan(facts, requested, minimum, target);
    await reserveRefundGas(trx, deps.relayerBudget, target.merchantId, now);
    let from = target.depositAddress;
    if (plan.source === "managed_wallet") {
      const wallet = await findManagedWalletKey(trx, target.merchantId);
      if (!wallet) throw refusal({ ok: false, reason: "nothing_held", available: 0n }, target);
      from = wallet.address.toLowerCase();
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
    return refund;
  });
  return token ? { row, claimUrl: `${deps.payUrl}/refund/${token}` } : { row };
}
