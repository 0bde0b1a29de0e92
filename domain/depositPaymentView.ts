import { getAddress } from "viem";
import { formatUsdc } from "./money.ts";
import type { IndexedTransfer } from "./paymentState.ts";

/** One of an invoice's or link's `payments`, as the API shows it. */
export type DepositPaymentView = {
  tx_hash: string;
  log_index: number;
  /** The payer's address, checksummed. */
  from: string;
  amount: string;
  block_number: number;
  /** The block's time. */
  paid_at: string;
  /** Whether reconcile counted it: it has the confirmations it needs. */
  counted: boolean;
};

/**
 * The `payments` of an invoice or link: every USDC transfer indexed to its deposit address
 * (stored lower-case), but one from the address itself, each `counted` once it has the
 * confirmations it needs (only counted ones are in what was received).
 */
export function presentDepositPayments(
  transfers: readonly IndexedTransfer[],
  depositAddress: string,
  counted: readonly string[],
): DepositPaymentView[] {
  return transfers
    .filter((t) => t.from.toLowerCase() !== depositAddress)
    .map((t) => ({
      tx_hash: t.txHash,
      log_index: Number(t.id.split("-")[1]),
      from: getAddress(t.from),
      amount: formatUsdc(t.value),
      block_number: Number(t.blockNumber),
      paid_at: t.paidAt.toISOString(),
      counted: counted.includes(t.id),
    }));
}
