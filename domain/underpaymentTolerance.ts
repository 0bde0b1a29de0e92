import type { StoredInvoiceStatus } from "./statuses.ts";

/**
 * The highest underpayment tolerance a merchant may set: 10 USDC. Exchange withdrawal fees,
 * the shortfall it exists for, are cents to a few dollars; a larger figure would let a payer
 * settle an invoice while keeping real money back (docs/api.md, "Underpayment tolerance").
 */
export const MAX_UNDERPAYMENT_TOLERANCE = 10_000_000n;

/**
 * What is still due on an invoice: nothing once it is `paid` (a shortfall within the merchant's
 * tolerance is settled, so the page asks for no more), otherwise the total less what arrived.
 *
 * @example invoiceAmountDue("paid", 3_000_000n, 2_950_000n) // 0n
 * @example invoiceAmountDue("partial", 3_000_000n, 2_000_000n) // 1_000_000n
 */
export function invoiceAmountDue(
  status: StoredInvoiceStatus,
  total: bigint,
  received: bigint,
): bigint {
  if (status === "paid") return 0n;
  return total > received ? total - received : 0n;
}
