import { randomUUID } from "node:crypto";
import { type Address, getAddress } from "viem";
import type { Executor } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { findManagedWallet, findMerchantEmail } from "../../db/queries/merchants.ts";
import {
  findPayout,
  insertPayout,
  listPayouts,
  loadManagedWalletBook,
  type PayoutRow,
  payoutsSince,
  queuePayoutEmail,
} from "../../db/queries/payouts.ts";
import { isPayoutWallet } from "../../db/queries/payoutWallets.ts";
import { lockDepositSpending } from "../../db/queries/refunds.ts";
import {
  type ManagedWalletFunds,
  managedWalletFunds,
  payoutRefusal,
} from "../../domain/managedWallet.ts";
import { formatUsdc, usdcToBaseUnits } from "../../domain/money.ts";
import { payoutNonce } from "../../domain/refundNonce.ts";
import { type Actor, type MerchantActor, merchantAudit } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { claimOrReplay, rememberAnswer, rememberedAnswer } from "../idempotency.ts";
import { merchantHourlyLimitReached } from "../merchantHourlyLimit.ts";
import { Refusal, validationError } from "../refusal.ts";
import { reserveTransferGas } from "../relayerGas.ts";

export type { PayoutRow };

/** The operation payouts' Idempotency-Keys are stored under (app.idempotency_keys). */
export const PAYOUT_OPERATION = "payout";

/** What a payout's Idempotency-Key replays. */
type StoredPayoutAnswer = { payout_id: string };

/** A payout asked for: an amount (a decimal string, validated) and a registered payout wallet. */
export type PayoutRequest = { amount: string; to: Address };

/** The managed wallet of a merchant and its funds (null without a managed wallet yet). */
export type ManagedWalletState = { address: Address; funds: ManagedWalletFunds } | null;

/**
 * The funds of a managed wallet by the books (domain/managedWallet.ts), under the lock the
 * wallet's spending takes (`lockDepositSpending`: the same lock the worker holds while it
 * submits a refund out of the wallet), so a payout and a refund never plan the same money.
 */
async function fundsOf(db: Executor, wallet: string): Promise<ManagedWalletFunds> {
  return managedWalletFunds(await loadManagedWalletBook(db, wallet));
}

/**
 * The actor's managed wallet: its address, balance, what unfinished refunds and payouts
 * reserve of it, and what is available to pay out (GET /api/merchant/balance, the dashboard's
 * settings page).
 */
export async function managedWalletOf(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
): Promise<ManagedWalletState> {
  const wallet = await findManagedWallet(deps.db, ownMerchantId(actor.identity));
  if (!wallet) return null;
  return { address: getAddress(wallet), funds: await fundsOf(deps.db, wallet) };
}

const HOUR_MS = 3_600_000;

/**
 * Payouts cost the relayer a transaction each, like refunds: at most
 * REFUNDS_PER_MERCHANT_PER_HOUR payouts per merchant and hour (counted apart from its refunds;
 * 0: no limit), judged under the wallet's lock so concurrent requests see each other.
 */
async function assertPayoutRate(
  trx: Executor,
  limits: CoreDeps["refundLimits"],
  merchantId: string,
): Promise<void> {
  if (!limits?.perMerchantPerHour) return;
  const now = new Date();
  const recent = await payoutsSince(trx, merchantId, new Date(now.getTime() - HOUR_MS));
  if (recent.count < limits.perMerchantPerHour) return;
  throw merchantHourlyLimitReached("payouts", limits.perMerchantPerHour, recent.oldest, now);
}

/**
 * Pays money out of the actor's managed wallet to one of its registered payout wallets (never
 * any other address: a stolen key can only move the merchant's money to the merchant), at most
 * what is available (the books' balance less what unfinished refunds and payouts reserve), once
 * per intent: under an Idempotency-Key, a retry answers the first payout. Recorded with its
 * deterministic authorization nonce (domain/refundNonce.ts payoutNonce), audited, the account
 * emailed, in one transaction; the row's trigger queues `submit_payout`.
 */
export async function createPayout(
  deps: Pick<CoreDeps, "db" | "relayerBudget" | "refundLimits" | "log">,
  actor: MerchantActor,
  request: PayoutRequest,
  options: { idempotencyKey?: string; trigger?: "request" | "automatic" } = {},
): Promise<PayoutRow> {
  const merchantId = ownMerchantId(actor.identity);
  const amount = usdcToBaseUnits(request.amount);
  if (amount <= 0n)
    throw validationError([
      { path: "amount", code: "not_positive", message: "must be greater than 0" },
    ]);
  if (!(await isPayoutWallet(deps.db, merchantId, request.to)))
    throw validationError([
      {
        path: "to",
        code: "not_a_payout_wallet",
        message:
          "must be one of your registered payout wallets (POST /api/merchant/wallets): money leaves a managed wallet only to the merchant's own wallets",
      },
    ]);
  const id = randomUUID();
  const payout = await deps.db.transaction().execute(async (trx) => {
    const key = await claimOrReplay<StoredPayoutAnswer>(
      trx,
      merchantId,
      PAYOUT_OPERATION,
      options.idempotencyKey
        ? { key: options.idempotencyKey, request: { ...request, to: request.to.toLowerCase() } }
        : undefined,
    );
    if ("replay" in key) {
      const first = await findPayout(trx, key.replay.payout_id);
      if (!first) throw new Error(`idempotent payout ${key.replay.payout_id} not found`);
      return first;
    }
    const wallet = await findManagedWallet(trx, merchantId);
    if (!wallet)
      throw new Refusal(
        "conflict",
        "no_managed_wallet",
        "this account has no managed wallet yet: it is made with its first `managed` invoice or link",
      );
    await lockDepositSpending(trx, wallet.toLowerCase());
    await assertPayoutRate(trx, deps.refundLimits, merchantId);
    const funds = await fundsOf(trx, wallet);
    if (payoutRefusal(amount, funds))
      throw new Refusal(
        "conflict",
        "payout_exceeds_available",
        `your managed wallet has ${formatUsdc(funds.available)} USDC available to pay out (${formatUsdc(funds.balance)} held, ${formatUsdc(funds.reserved)} reserved for refunds and payouts on their way)`,
      );
    await reserveTransferGas(trx, deps.relayerBudget, merchantId, {
      what: "payouts",
      unavailableCode: "payouts_unavailable",
      instead: "the money stays in the managed wallet",
    });
    const from = wallet.toLowerCase();
    const row = await insertPayout(trx, {
      id,
      merchant_id: merchantId,
      from_address: from,
      to_address: getAddress(request.to),
      nonce: payoutNonce(getAddress(from), id),
      amount,
      trigger: options.trigger ?? "request",
    });
    await recordAudit(trx, merchantAudit(actor, "payout.requested", id));
    await queuePayoutEmail(trx, {
      kind: "payout_requested",
      recipient: await findMerchantEmail(trx, merchantId),
      payoutId: id,
    });
    await rememberAnswer(trx, key.claimed, { payout_id: id } satisfies StoredPayoutAnswer);
    return row;
  });
  deps.log.info("payout requested", { payout_id: payout.id, amount: formatUsdc(payout.amount) });
  return payout;
}

/** The actor's payouts, newest first (the last 100). */
export async function payoutsOf(deps: Pick<CoreDeps, "db">, actor: Actor): Promise<PayoutRow[]> {
  return listPayouts(deps.db, ownMerchantId(actor.identity), 100);
}

/** The payout the actor's request under `key` made (the dashboard's page after its redirect). */
export async function requestedPayout(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  key: string,
): Promise<PayoutRow | undefined> {
  const merchantId = ownMerchantId(actor.identity);
  const stored = await rememberedAnswer<StoredPayoutAnswer>(
    deps.db,
    merchantId,
    PAYOUT_OPERATION,
    key,
  );
  const row = stored && (await findPayout(deps.db, stored.payout_id));
  return row?.merchant_id === merchantId ? row : undefined;
}
