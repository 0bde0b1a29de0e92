import { type Address, getAddress, zeroAddress } from "viem";
import type { Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { loadManagedWalletBook } from "../../db/queries/payouts.ts";
import { findRecentSameRefund, lockDepositSpending } from "../../db/queries/refunds.ts";
import {
  countUnfinishedRefunds,
  lockMerchantRefunds,
  merchantRefundsSince,
} from "../../db/queries/relayerGas.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { managedWalletFunds } from "../../domain/managedWallet.ts";
import { formatUsdc } from "../../domain/money.ts";
import { MAX_UNFINISHED_REFUNDS } from "../../domain/relayerBudget.ts";
import type { CoreDeps, RefundLimits } from "../deps.ts";
import { merchantHourlyLimitReached } from "../merchantHourlyLimit.ts";
import { Refusal, validationError } from "../refusal.ts";
import type { RefundTarget } from "./refundTarget.ts";

/**
 * The checks a refund request passes before it is planned (app/refunds/createRefund.ts): its
 * destination, the payment's sender, the caps and rates, the managed wallet's funds, and a
 * resubmission of the same request.
 */

/**
 * How long a request without an Idempotency-Key that repeats a refund (same invoice or link,
 * amount and destination) is taken for a resubmission, not a new intent: a 409 naming the
 * first refund, rather than paying again.
 */
export const DUPLICATE_REFUND_WINDOW_MINUTES = 10;

/** What a refund's Idempotency-Key replays: the refund, and its claim URL sealed (never plain). */
const HOUR_MS = 3_600_000;

/** A destination Remit must not pay: nobody could spend it, or it is Remit's own. */
export async function assertPayable(deps: Pick<CoreDeps, "db">, to: Address): Promise<void> {
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
export async function senderOf(
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
      "conflict",
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
export async function assertRefundAllowed(
  trx: Executor,
  limits: RefundLimits | undefined,
  target: RefundTarget,
  now: Date,
): Promise<void> {
  if ((await countUnfinishedRefunds(trx, target.owner)) >= MAX_UNFINISHED_REFUNDS)
    throw new Refusal(
      "conflict",
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
    throw merchantHourlyLimitReached("refunds", limits.perMerchantPerHour, recent.oldest, now);
  }
}

/**
 * A refund out of the managed wallet takes no more than the wallet has available (payouts may
 * have taken the rest: domain/managedWallet.ts), judged under the wallet's spending lock, the
 * one payouts take, so the two never plan the same money.
 */
export async function assertWalletHolds(
  trx: Executor,
  wallet: string,
  amount: bigint,
): Promise<void> {
  await lockDepositSpending(trx, wallet);
  const funds = managedWalletFunds(await loadManagedWalletBook(trx, wallet));
  if (amount > funds.available)
    throw new Refusal(
      "conflict",
      "managed_wallet_insufficient",
      `your managed wallet has ${formatUsdc(funds.available)} USDC available (payouts took the rest, or refunds on their way reserve it): refund at most that, or from your own wallet`,
    );
}

/**
 * A request without an Idempotency-Key that repeats a refund of the last minutes (the same
 * explicit amount to the same destination) is a resubmission (a reload, a double click, a
 * retried request), not a second intent: 409 `duplicate_refund` naming the first refund. A
 * second refund of the same amount is asked for with an Idempotency-Key of its own.
 */
export async function assertNotRepeated(
  trx: Executor,
  target: RefundTarget,
  requested: bigint | undefined,
  to: Address | null,
  toSender: boolean,
  now: Date,
): Promise<void> {
  if (requested === undefined) return;
  const since = new Date(now.getTime() - DUPLICATE_REFUND_WINDOW_MINUTES * 60_000);
  const first = await findRecentSameRefund(trx, target.owner, {
    amount: requested,
    to: to?.toLowerCase() ?? null,
    toSender,
    since,
  });
  if (!first) return;
  const refusal = new Refusal(
    "conflict",
    "duplicate_refund",
    `a refund of ${formatUsdc(requested)} USDC to the same destination was requested for ${target.label} at ${first.created_at.toISOString()} (refund ${first.id}): this looks like the same request again. To refund that amount a second time, send the request with an Idempotency-Key of its own`,
  );
  refusal.related = { refund_id: first.id };
  throw refusal;
}
