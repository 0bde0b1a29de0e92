import type { RefundSource, WalletType } from "./statuses.ts";

/**
 * What Remit still controls for one invoice or link, the facts a refund is planned from (all in
 * USDC base units):
 * - `received`: the counted payments to its deposit address (app.payment_state.received);
 * - `swept`: what sweeps moved or are moving to the merchant's wallet (every sweep not failed);
 * - `sweptConfirmed`: what of it has arrived there (confirmed sweeps);
 * - `refundedFromDeposit` / `refundedFromWallet`: refunds requested, submitted or confirmed
 *   (every refund not failed) out of the deposit address / the managed wallet.
 */
export type RefundFacts = {
  walletType: WalletType;
  received: bigint;
  swept: bigint;
  sweptConfirmed: bigint;
  refundedFromDeposit: bigint;
  refundedFromWallet: bigint;
  /**
   * What of `received` is the merchant's revenue (domain/sweepPolicy.ts settledAmount: an
   * invoice's total, a link's whole payments; all of it while partially paid; nothing for a
   * void invoice). The rest is not the merchant's: held for refund.
   */
  revenue: bigint;
};

/** What can be refunded from where. */
export type Refundable = {
  /** Still on the deposit address and not spoken for: held excess, an unswept payment, a void invoice's payment. */
  deposit: bigint;
  /**
   * What of `deposit` is not the merchant's revenue: an overpayment's excess, a void invoice's
   * payment, a link's remainder. The only money a refund without an amount returns.
   */
  held: bigint;
  /** Swept into the merchant's managed wallet (whose key Remit holds) and not refunded yet. */
  managedWallet: bigint;
  /** Swept to the merchant's own (byo) wallet: Remit no longer holds it. */
  sweptToOwnWallet: bigint;
  /** Refunds already requested, submitted or confirmed, from either address. */
  refunding: bigint;
};

const positive = (value: bigint) => (value > 0n ? value : 0n);

/**
 * What is refundable for an invoice or link: what its deposit address still holds less what
 * sweeps and refunds already took or are taking, plus (managed wallet type) what was swept into
 * the managed wallet less what was refunded from there. Money swept to a `byo` wallet is not
 * Remit's to move: reported apart, so a refusal can say so.
 *
 * @example refundableOf({ walletType: "byo", received: 3_500_000n, swept: 3_000_000n, sweptConfirmed: 3_000_000n, refundedFromDeposit: 0n, refundedFromWallet: 0n })
 * // { deposit: 500_000n, managedWallet: 0n, sweptToOwnWallet: 3_000_000n, refunding: 0n }
 */
export function refundableOf(facts: RefundFacts): Refundable {
  const deposit = positive(facts.received - facts.swept - facts.refundedFromDeposit);
  // Refunds out of the deposit take the held money first: it is what the payer is owed back.
  const notRevenue = positive(facts.received - facts.revenue - facts.refundedFromDeposit);
  // biome-ignore lint/complexity/useMathMinMax: bigint amounts.
  const held = notRevenue < deposit ? notRevenue : deposit;
  const refunding = facts.refundedFromDeposit + facts.refundedFromWallet;
  if (facts.walletType === "managed")
    return {
      deposit,
      held,
      managedWallet: positive(facts.sweptConfirmed - facts.refundedFromWallet),
      sweptToOwnWallet: 0n,
      refunding,
    };
  return { deposit, held, managedWallet: 0n, sweptToOwnWallet: facts.swept, refunding };
}

/** A refund's amount and where it leaves from; or why there is none. */
export type RefundPlan =
  | { ok: true; source: RefundSource; amount: bigint }
  | {
      ok: false;
      reason:
        | "nothing_held"
        | "revenue_needs_amount"
        | "swept_to_own_wallet"
        | "exceeds_refundable"
        | "split_needed";
      /** The most one refund can take now (0 when nothing). */
      available: bigint;
    };

/**
 * Plans one refund, which is one transfer out of one address. Without an amount, only what is
 * not the merchant's revenue and is still on the deposit address (`held`: an overpayment's
 * excess, a void invoice's payment, a link's remainder), so a request meaning "give the
 * overpayment back" can never refund revenue when it is sent twice: nothing held is
 * `nothing_to_refund` (with `available`, what an explicit amount could refund). With an amount,
 * revenue too: from the deposit address when it holds the amount (held money first), else from
 * the managed wallet. An amount more than either holds alone, though not more than both
 * together, is refused with the most one refund can take (`split_needed`): refund that, then
 * the rest. Nothing refundable while money was swept to a byo wallet: `swept_to_own_wallet`
 * (the merchant refunds from its own wallet).
 *
 * @example planRefund(undefined, { deposit: 500_000n, held: 500_000n, managedWallet: 0n, sweptToOwnWallet: 3_000_000n, refunding: 0n }) // { ok: true, source: "deposit", amount: 500_000n }
 */
export function planRefund(requested: bigint | undefined, refundable: Refundable): RefundPlan {
  const { deposit, held, managedWallet, sweptToOwnWallet } = refundable;
  // Math.max takes no bigints.
  // biome-ignore lint/complexity/useMathMinMax: bigint amounts.
  const largest = deposit > managedWallet ? deposit : managedWallet;
  if (requested === undefined) {
    if (held > 0n) return { ok: true, source: "deposit", amount: held };
    if (largest > 0n) return { ok: false, reason: "revenue_needs_amount", available: largest };
    if (sweptToOwnWallet > 0n && refundable.refunding === 0n)
      return { ok: false, reason: "swept_to_own_wallet", available: 0n };
    return { ok: false, reason: "nothing_held", available: 0n };
  }
  if (requested <= 0n) return { ok: false, reason: "exceeds_refundable", available: largest };
  if (requested <= deposit) return { ok: true, source: "deposit", amount: requested };
  if (requested <= managedWallet) return { ok: true, source: "managed_wallet", amount: requested };
  if (requested <= deposit + managedWallet)
    return { ok: false, reason: "split_needed", available: largest };
  // Everything held is refunded or being refunded: a second refund of the same money.
  if (largest === 0n && refundable.refunding > 0n && sweptToOwnWallet === 0n)
    return { ok: false, reason: "nothing_held", available: 0n };
  if (largest === 0n && sweptToOwnWallet > 0n)
    return { ok: false, reason: "swept_to_own_wallet", available: 0n };
  if (largest === 0n) return { ok: false, reason: "nothing_held", available: 0n };
  return {
    ok: false,
    reason: sweptToOwnWallet > 0n ? "swept_to_own_wallet" : "exceeds_refundable",
    available: largest,
  };
}

/**
 * What a sweep of a deposit address may move without touching money a refund is taking: the
 * address's counted payments less what sweeps and refunds already took or are taking. The sweep
 * policy moves no more than this (domain/sweepPolicy.ts), so a sweep and a refund never both
 * spend the same funds.
 */
export function sweepableAfterRefunds(
  received: bigint,
  swept: bigint,
  refundedFromDeposit: bigint,
): bigint {
  return positive(received - swept - refundedFromDeposit);
}
