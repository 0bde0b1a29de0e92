import type { LinkStatus, StoredInvoiceStatus } from "./statuses.ts";

// Defined with its list in statuses.ts; named here too, where callers have long found it.
export type { LinkStatus };

export type IndexedTransfer = {
  /** `<tx hash>-<log index>`. */
  id: string;
  txHash: string;
  from: string;
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
 * What a deposit address has received: a pure function of the confirmed transfers to it,
 * however often, in whatever order, they were seen. Transfers out of it (sweeps) never count.
 */
export function derivePaymentState(
  depositAddress: string,
  confirmed: readonly IndexedTransfer[],
): PaymentState {
  const payments = [...confirmed]
    .filter((t) => t.from.toLowerCase() !== depositAddress.toLowerCase())
    .sort((a, b) =>
      a.blockNumber === b.blockNumber
        ? a.id.localeCompare(b.id)
        : a.blockNumber < b.blockNumber
          ? -1
          : 1,
    );
  const latest = payments.at(-1);
  return {
    received: payments.reduce((sum, t) => sum + t.value, 0n),
    counted: payments.map((t) => t.id).sort(),
    latestTxHash: latest?.txHash ?? null,
    latestPaidAt: latest?.paidAt ?? null,
  };
}

/** The stored status that `received` implies for an invoice of `total`. */
/** What is still to pay: the amount less what arrived, never below zero. */
export function amountDue(amount: bigint, received: bigint): bigint {
  return amount > received ? amount - received : 0n;
}

export function invoiceStatusFor(
  total: bigint,
  received: bigint,
  sent: boolean,
): StoredInvoiceStatus {
  if (received === 0n) return sent ? "sent" : "draft";
  if (received < total) return "partial";
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
  | "link.payment_reversed";

/** A payment link's status (spec §3.2) for what it has received. */
export function linkStatusFor(amount: bigint, received: bigint): LinkStatus {
  if (received === 0n) return "pending";
  if (received < amount) return "partial";
  return received === amount ? "confirmed" : "excess";
}

/**
 * The event a change of payment state produces, or null. More received → `invoice.paid`,
 * `.partial` or `.excess` (every payment is reported, a second partial one too); less received
 * (a reorg removed a counted transfer) → `invoice.payment_reversed`. The same amount through
 * other transfers (a payment re-mined in another block) is no event: it counts once.
 */
export function paymentEventType(
  previous: PaymentState,
  next: PaymentState,
  nextStatus: StoredInvoiceStatus | LinkStatus,
  owner: "invoice" | "link" = "invoice",
): PaymentEventType | null {
  if (next.received === previous.received) return null;
  if (next.received < previous.received) return `${owner}.payment_reversed`;
  if (nextStatus === "draft" || nextStatus === "sent" || nextStatus === "pending") return null;
  return `${owner}.${nextStatus}` as PaymentEventType;
}
