import { getAddress } from "viem";
import type { ConvertedPayment } from "./currencyPayments.ts";
import { formatUsdc } from "./money.ts";
import type { IndexedTransfer } from "./paymentState.ts";
import { formatRatio } from "./rates.ts";

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
  /** Priced in a currency, once converted: its worth in it, and USDC per unit it counted at. */
  amount_in_currency?: string;
  rate?: string;
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
  converted: readonly ConvertedPayment[] = [],
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
      ...conversionOf(converted.find((c) => c.transfer.id === t.id)),
    }));
}

/** A converted payment's two fields; none for one not converted (or priced in USDC). */
function conversionOf(
  payment: ConvertedPayment | undefined,
): Pick<DepositPaymentView, "amount_in_currency" | "rate"> {
  if (!payment) return {};
  return { amount_in_currency: formatUsdc(payment.amount), rate: formatRatio(payment.rate) };
}
