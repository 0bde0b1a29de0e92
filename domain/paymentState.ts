import type { LinkStatus, StoredInvoiceStatus } from "./statuses.ts";

// Defined with its list in statuses.ts; named here too, where callers have long found it.
export type { LinkStatus };

export type IndexedTransfer = {
  /** `<tx hash>-<log index>`. */
  id: string;
  txHash: string;
  from: string;
  /** The recipient, where the reader has it (the indexer's rows do). */
  to?: string;
  value: bigint;
  blockNumber: bigint;
  /** Block time. */
  paidAt: Date;
};

export type PaymentState = {
  received: bigint;
  counted: string[];
  latestTxHash: string | null;
  latestPaidAt: Date | null;
  /**
   * What the counted payments are worth in the owner's currency (docs/currencies.md); absent
   * or null for an owner priced in USDC, or before anything was converted.
   */
  receivedInCurrency?: bigint | null;
};

export const EMPTY_PAYMENT_STATE: PaymentState = {
  received: 0n,
  counted: [],
  latestTxHash: null,
  latestPaidAt: null,
};

/**
 * Transfers that count: those with at least `confirmations` blocks on top of them, the
 * indexer's latest block included (so 1 counts a transfer as soon as it is indexed). With no
 * known head nothing counts.
 */
export function confirmedTransfers(
  transfers: readonly IndexedTransfer[],
  head: bigint | null,
  confirmations: number,
): IndexedTransfer[] {
  if (head === null) return [];
  return transfers.filter((t) => head - t.blockNumber + 1n >= BigInt(confirmations));
}

/**
 * The payments among the confirmed transfers to a deposit address, in chain order (block,
 * then id): transfers out of it (sweeps) are no payments.
 */
export function orderedPayments(
  depositAddress: string,
  confirmed: readonly IndexedTransfer[],
): IndexedTransfer[] {
  return [...confirmed]
    .filter((t) => t.from.toLowerCase() !== depositAddress.toLowerCase())
    .sort((a, b) =>
      a.blockNumber === b.blockNumber
        ? a.id.localeCompare(b.id)
        : a.blockNumber < b.blockNumber
          ? -1
          : 1,
    );
}

/**
 * What a deposit address has received: a pure function of the confirmed transfers to it,
 * however often, in whatever order, they were seen. Transfers out of it (sweeps) never count.
 */
export function derivePaymentState(
  depositAddress: string,
  confirmed: readonly IndexedTransfer[],
): PaymentState {
  const payments = orderedPayments(depositAddress, confirmed);
  const latest = payments.at(-1);
  return {
    received: payments.reduce((sum, t) => sum + t.value, 0n),
    counted: payments.map((t) => t.id).sort(),
    latestTxHash: latest?.txHash ?? null,
    latestPaidAt: latest?.paidAt ?? null,
  };
}

/**
 * The amount an invoice's or link's status is derived from: everything received, except dust
 * that arrived after the amount had been paid exactly. Once the payments, in chain order,
 * added up to exactly `amount`, whatever came after stays held for refund without turning
 * `paid` (`confirmed`) into `excess` as long as it adds up to less than `dustThreshold`
 * (EXCESS_DUST_THRESHOLD). A payment that overshoots the amount itself, or extra payments
 * worth the threshold or more, are `excess` exactly as spec §3.1 says.
 *
 * @example amountForStatus(3_000_000n, [3_000_000n, 1n], 10_000n) // 3_000_000n: still paid
 * @example amountForStatus(3_000_000n, [3_000_001n], 10_000n) // 3_000_001n: excess
 */
export function amountForStatus(
  amount: bigint,
  paymentsInOrder: readonly bigint[],
  dustThreshold: bigint,
): bigint {
  let sum = 0n;
  let paidExactly = false;
  for (const value of paymentsInOrder) {
    sum += value;
    if (sum === amount) paidExactly = true;
  }
  return paidExactly && sum > amount && sum - amount < dustThreshold ? amount : sum;
}

// What is still to pay on an amount: one rule, in moneyRules.ts; named here too for its callers.
export { amountDue } from "./moneyRules.ts";

/**
 * The stored status that `received` implies for an invoice asking for `total` (spec §3.1; after
 * credit notes, moneyRules' invoicedAmount); pass
 * amountForStatus's figure to hold dust after an exact payment. `tolerance` is the merchant's
 * opt-in underpayment tolerance (docs/api.md, "Underpayment tolerance"): a shortfall of at most
 * that much is `paid` too; 0, the default, keeps `paid` = exactly the total.
 *
 * @example invoiceStatusFor(3_000_000n, 2_990_000n, true, 10_000n) // "paid": 0.01 short, tolerated
 */
export function invoiceStatusFor(
  total: bigint,
  received: bigint,
  sent: boolean,
  tolerance = 0n,
): StoredInvoiceStatus {
  // Only credit notes bring what an invoice asks for to 0 (a total is never 0): credited in
  // full, it is cancelled (`void`) when nothing came, and anything received is excess, refundable.
  if (total === 0n) return received === 0n ? "void" : "excess";
  if (received === 0n) return sent ? "sent" : "draft";
  if (received < total) return total - received <= tolerance ? "paid" : "partial";
  return received === total ? "paid" : "excess";
}

export type PaymentEventType =
  | "invoice.paid"
  | "invoice.partial"
  | "invoice.excess"
  | "invoice.payment_reversed"
  | "link.confirmed"
  | "link.partial"
  | "link.excess"
  | "link.payment_reversed"
  /** A payment to a void invoice: recorded, held for refund, the status stays `void` (0023). */
  | "invoice.unexpected_payment"
  /** A refund confirmed on chain (the indexer saw its transfer out). */
  | "invoice.refunded"
  | "link.refunded"
  /** An open invoice's due date is near / has passed (domain/reminders.ts), once each. */
  | "invoice.will_be_due"
  | "invoice.overdue"
  /** A credit note issued on an invoice (migration 0040). */
  | "credit_note.created";

/** A payment link's status (spec §3.2) for what it has received. */
export function linkStatusFor(amount: bigint, received: bigint): LinkStatus {
  if (received === 0n) return "pending";
  if (received < amount) return "partial";
  return received === amount ? "confirmed" : "excess";
}

/**
 * When a change is worth telling: without it, every change of the amount received is.
 * With it, dust is coalesced: a change that leaves the status as it is and moves the amount
 * received less than `dustThreshold` away from what the last event told is recorded (the
 * status endpoint shows it at once) but produces no email or webhook of its own; the next
 * event carries it, and once such changes add up to the threshold they are told.
 */
export type NoticeRule = {
  /** The stored status before the change. */
  previousStatus: StoredInvoiceStatus | LinkStatus;
  /** `paid_amount` of the last event (0 before the first). */
  notifiedReceived: bigint;
  /** EXCESS_DUST_THRESHOLD in base units. */
  dustThreshold: bigint;
};

/**
 * The event a change of payment state produces, or null. More received → `invoice.paid`,
 * `.partial` or `.excess` (every payment is reported, a second partial one too); less received
 * (a reorg removed a counted transfer) → `invoice.payment_reversed`. The same amount through
 * other transfers (a payment re-mined in another block) is no event: it counts once, unless
 * the new order changes the status (dust that now comes before the payment that completes).
 * With a `rule`, dust is coalesced (see NoticeRule).
 */
export function paymentEventType(
  previous: PaymentState,
  next: PaymentState,
  nextStatus: StoredInvoiceStatus | LinkStatus,
  owner: "invoice" | "link" = "invoice",
  rule?: NoticeRule,
): PaymentEventType | null {
  const unpaid = nextStatus === "draft" || nextStatus === "sent" || nextStatus === "pending";
  if (rule) {
    const drift = next.received - rule.notifiedReceived;
    const statusKept = nextStatus === rule.previousStatus;
    if (statusKept && (drift < 0n ? -drift : drift) < rule.dustThreshold) return null;
    if (!statusKept && next.received === previous.received && !unpaid)
      return `${owner}.${nextStatus}` as PaymentEventType;
  }
  if (next.received === previous.received) return null;
  if (next.received < previous.received) return `${owner}.payment_reversed`;
  if (unpaid) return null;
  return `${owner}.${nextStatus}` as PaymentEventType;
}
