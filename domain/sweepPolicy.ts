import { sweepableAfterRefunds } from "./refundPlan.ts";
import type { LinkStatus, StoredInvoiceStatus } from "./statuses.ts";

/** The settings of the sweep policy (docs/operations.md, "Settings"). */
export type SweepSettings = {
  /** SWEEP_MIN_AMOUNT: no automatic sweep moves less (its gas would not be worth it). */
  minAmount: bigint;
  /** SWEEP_PARTIAL_AFTER: a partial payment is swept once no transfer arrived for this long. */
  partialAfterMs: number;
};

/** What a deposit address belongs to, as the policy sees it. */
export type SweepOwner = (
  | { kind: "invoice"; status: StoredInvoiceStatus; amount: bigint }
  | { kind: "link"; status: LinkStatus; amount: bigint }
) & {
  /**
   * Set for an owner priced in a currency (EUR, GBP, USD), whose `amount` is in it: what its
   * counted payments are worth in that currency (app.payment_state.received_in_currency).
   */
  receivedInCurrency?: bigint;
};

export type SweepInput = {
  owner: SweepOwner;
  /** Counted payments to the address (app.payment_state.received). */
  received: bigint;
  /** What sweeps of the address have moved or are moving (every sweep not `failed`). */
  swept: bigint;
  /** The address's USDC balance on chain, when known: a sweep never moves more. */
  balance?: bigint;
  /**
   * What refunds out of the address took or are taking (every refund not `failed`, the ones
   * waiting for their claim link included): a sweep never moves money a refund is spending.
   */
  refunding?: bigint;
  /**
   * When Remit last saw the counted payments change (app.payment_state.updated_at): by the
   * worker's own clock, which `now` is read from, so a chain clock running ahead (anvil mining
   * a block per transaction) or behind cannot move the wait.
   */
  lastChangeAt: Date | null;
  now: Date;
  settings: SweepSettings;
};

/** Why a deposit is not swept now. */
export type SweepHoldReason =
  /** Nothing counted yet. */
  | "nothing_received"
  /** Partially paid, and the payer may still be sending the rest: retryAt says when to look. */
  | "partial"
  /** Everything settled is swept already; what is left is excess or dust, held for refund. */
  | "nothing_to_sweep"
  /** Less than SWEEP_MIN_AMOUNT to sweep. */
  | "below_minimum";

export type SweepDecision =
  | { sweep: true; amount: bigint }
  | { sweep: false; reason: SweepHoldReason; retryAt?: Date };

/**
 * How much of a deposit has been paid for good, the part its merchant owns for sure:
 * - an invoice `paid` or `excess`: its total (the excess stays held for refund), or what arrived
 *   when it is `paid` short of it (the merchant's underpayment tolerance);
 * - a link: every whole `amount` received. A link takes many payments (the spec asks for a new
 *   link per order, but a shared link keeps accumulating), so each whole amount is one settled
 *   payment; the remainder is an overpayment or the start of the next payment, and is held.
 * Null while partially paid (the payer may be sending the rest); 0 with nothing received, and
 * for a `void` invoice: whatever reaches it is an unexpected payment, held for refund.
 * For an owner priced in a currency, the rule is applied in the currency and gives that share
 * of the USDC received: a `paid` EUR invoice settles everything that arrived, an `excess` one
 * the part of it that its total was worth.
 */
export function settledAmount(owner: SweepOwner, received: bigint): bigint | null {
  const inCurrency = owner.receivedInCurrency;
  if (inCurrency === undefined) return settledOfUnit(owner, received);
  // Priced in a currency: the same rule in it, then that share of the USDC received (payments
  // waiting for a rate count for nothing in the currency yet: held like a partial payment).
  if (inCurrency === 0n) return received === 0n ? 0n : null;
  // `paid` (`confirmed`) in a currency is the amount to within a conversion's rounding: all of
  // what arrived is settled.
  if (owner.status === "paid" || owner.status === "confirmed") return received;
  const settled = settledOfUnit(owner, inCurrency);
  if (settled === null) return null;
  return (received * settled) / inCurrency;
}

/** settledAmount of an owner whose `amount` and `received` are in one unit. */
function settledOfUnit(owner: SweepOwner, received: bigint): bigint | null {
  if (owner.status === "partial") return null;
  if (owner.kind === "invoice") {
    if (owner.status === "excess") return owner.amount;
    // Paid within the underpayment tolerance: what arrived is all there is to settle.
    if (owner.status === "paid") return received < owner.amount ? received : owner.amount;
    return 0n;
  }
  // confirmed: exactly one amount, or one amount and dust held after it.
  if (owner.status === "confirmed") return owner.amount;
  if (owner.status === "excess" && owner.amount > 0n)
    return (received / owner.amount) * owner.amount;
  return 0n;
}

/**
 * What of a deposit's counted payments is the merchant's revenue: the settled amount, or all
 * of it while partially paid (the payer is paying the merchant, in parts). What is left is not
 * the merchant's (an excess, a void invoice's payment, a link's remainder): held for refund
 * (domain/refundPlan.ts).
 *
 * @example revenueOf({ kind: "invoice", status: "excess", amount: 150_000_000n }, 170_000_000n) // 150_000_000n
 */
export function revenueOf(owner: SweepOwner, received: bigint): bigint {
  return settledAmount(owner, received) ?? received;
}

/**
 * Whether to sweep a deposit address now, and how much: the sweep policy (docs/api.md,
 * "Settlement"). A deposit is swept when what it belongs to is settled, and then only what is
 * settled (an invoice's total; a link's whole payments), so an excess stays on the address,
 * held for the merchant to refund or release. Never while it is `partial`: a payer paying in
 * parts sends the rest seconds later, and a sweep that empties the address under a transfer
 * estimated against a non-zero balance makes that transfer run out of gas. Only
 * when no transfer has arrived for `partialAfterMs` is a partial payment swept as it stands.
 * What a sweep moves is the settled amount less what earlier sweeps moved, so a payment that
 * arrives after a sweep is judged the same way, and never more than the balance. Nothing below
 * `minAmount` is swept automatically: dust costs the relayer more gas than it is worth.
 *
 * @example decideSweep({ owner: { kind: "invoice", status: "excess", amount: 3_000_000n }, received: 3_500_000n, swept: 0n, … }) // { sweep: true, amount: 3_000_000n }
 */
export function decideSweep(input: SweepInput): SweepDecision {
  const { owner, received, swept, balance, settings } = input;
  if (received === 0n) return { sweep: false, reason: "nothing_received" };
  let target = settledAmount(owner, received);
  if (target === null) {
    const since = input.lastChangeAt ?? input.now;
    const retryAt = new Date(since.getTime() + settings.partialAfterMs);
    if (input.now < retryAt) return { sweep: false, reason: "partial", retryAt };
    target = received;
  }
  let amount = target - swept;
  // Money a refund took or is taking is not the merchant's to receive (domain/refundPlan.ts).
  const free = sweepableAfterRefunds(received, swept, input.refunding ?? 0n);
  if (amount > free) amount = free;
  if (balance !== undefined && amount > balance) amount = balance;
  if (amount <= 0n) return { sweep: false, reason: "nothing_to_sweep" };
  if (amount < settings.minAmount) return { sweep: false, reason: "below_minimum" };
  return { sweep: true, amount };
}
