import { formatUsdc } from "./money.ts";
import { withinGasBudget } from "./relayedAuthorization.ts";

/**
 * The relayer's daily gas budgets (docs/operations.md, "The relayer's gas budget"): everything
 * the relayer pays for (sweeps, refunds, payers' gasless payments) counts against one global
 * budget and one per merchant, per UTC day.
 */
export type RelayerBudget = {
  /** Gas per UTC day for the whole service; 0: the relayer pays for sweeps only. */
  daily: bigint;
  /** Gas per UTC day for one merchant; 0: no per-merchant limit (the global one still holds). */
  perMerchantDaily: bigint;
};

/** What the relayer has spent today: all of it, and for one merchant. */
export type RelayerSpend = { global: bigint; merchant: bigint };

/**
 * Gas held for a refund from its request until its transaction is recorded: a refund's
 * `transferWithAuthorization` uses about 86,000 gas (up to ~103,000 with the relayer's 20 %
 * headroom on the limit); a little more, so the reservation never undercounts it.
 */
export const REFUND_GAS_RESERVE = 120_000n;

/** Refunds of one invoice or link requested or submitted (not finished) at one time. */
export const MAX_UNFINISHED_REFUNDS = 3;

/** Which budget would be overspent by one more transaction of `reserve` gas, or null. */
export function overRelayerBudget(
  spent: RelayerSpend,
  reserve: bigint,
  budget: RelayerBudget,
): "global" | "merchant" | null {
  if (!withinGasBudget(spent.global, reserve, budget.daily)) return "global";
  if (budget.perMerchantDaily > 0n && spent.merchant + reserve > budget.perMerchantDaily)
    return "merchant";
  return null;
}

/** Words for a spent budget, ending with what the caller can do meanwhile. */
export function relayerBudgetMessage(
  which: "global" | "merchant",
  what: "gasless payments" | "refunds" | "payouts",
  instead: string,
): string {
  const whose =
    which === "global"
      ? "the relayer's daily gas budget is spent"
      : "this merchant's share of the relayer's daily gas budget is spent";
  return `${what} are paused until tomorrow (UTC): ${whose}; ${instead}`;
}

/** Why a refund of `amount` is too small to be worth its gas, or null when it is not. */
export function belowRefundMinimum(amount: bigint, minimum: bigint): string | null {
  return amount < minimum
    ? `a refund must be at least ${formatUsdc(minimum)} USDC: a smaller one costs the relayer more gas than it returns; refund it from your own wallet`
    : null;
}

/**
 * Seconds until a rolling window of `limit` events per `windowMs` frees a place: when the
 * oldest event counted in it (`oldest`) leaves the window (at least 1).
 */
export function secondsUntilWindowFrees(oldest: Date, windowMs: number, now: Date): number {
  return Math.max(1, Math.ceil((oldest.getTime() + windowMs - now.getTime()) / 1000));
}
