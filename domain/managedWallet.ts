/**
 * A managed wallet's books, from Remit's own records (USDC base units): what sweeps brought in
 * and refunds and payouts took out, confirmed, and what unfinished refunds and payouts are
 * about to take. Money sent to the wallet by anyone else is not counted (Remit did not receive
 * it for an invoice or link): the books never promise more than the wallet holds.
 */
export type ManagedWalletBook = {
  /** Confirmed sweeps into the wallet. */
  sweptIn: bigint;
  /** Confirmed refunds and payouts out of it. */
  sentOut: bigint;
  /** Refunds out of it requested or submitted, not yet confirmed (or failed). */
  pendingRefunds: bigint;
  /** Payouts out of it requested or submitted, not yet confirmed (or failed). */
  pendingPayouts: bigint;
};

/** What the wallet holds, what is spoken for, and what a payout or refund may take now. */
export type ManagedWalletFunds = {
  balance: bigint;
  /** Held for refunds and payouts on their way: never paid out twice. */
  reserved: bigint;
  available: bigint;
};

const positive = (value: bigint) => (value > 0n ? value : 0n);

/**
 * The funds of a managed wallet: its balance by the books, what unfinished refunds and payouts
 * reserve of it, and the rest, which a new payout (or a refund of revenue from the wallet) may
 * take.
 *
 * @example managedWalletFunds({ sweptIn: 5_000_000n, sentOut: 1_000_000n, pendingRefunds: 500_000n, pendingPayouts: 0n })
 * // { balance: 4_000_000n, reserved: 500_000n, available: 3_500_000n }
 */
export function managedWalletFunds(book: ManagedWalletBook): ManagedWalletFunds {
  const balance = positive(book.sweptIn - book.sentOut);
  const reserved = book.pendingRefunds + book.pendingPayouts;
  return { balance, reserved, available: positive(balance - reserved) };
}

/** Why a payout cannot be made, or null when it can. */
export function payoutRefusal(
  amount: bigint,
  funds: ManagedWalletFunds,
): "not_positive" | "exceeds_available" | null {
  if (amount <= 0n) return "not_positive";
  if (amount > funds.available) return "exceeds_available";
  return null;
}
