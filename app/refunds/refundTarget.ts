import type { Executor } from "../../db/database.ts";
import { lockInvoiceByDepositAddress } from "../../db/queries/invoices.ts";
import { lockLinkByDepositAddress } from "../../db/queries/links.ts";
import type { RefundOwner } from "../../db/queries/refunds.ts";
import type { Currency } from "../../domain/currencies.ts";
import { invoicedAmount } from "../../domain/moneyRules.ts";
import type { StoredInvoiceStatus, WalletType } from "../../domain/statuses.ts";
import type { SweepOwner } from "../../domain/sweepPolicy.ts";

/** What is being refunded: an invoice or a payment link, as the refund sees it. */
export type RefundTarget = {
  owner: RefundOwner;
  merchantId: string;
  depositAddress: string;
  walletType: WalletType;
  /** An invoice's vendor, emailed the claim link; a link has none. */
  vendorEmail: string | null;
  label: string;
  /** Its status and amount as last read (a refund reads them again under the row's lock). */
  sweepOwner: SweepOwner;
  /** What its amount is in: USDC, or a currency (its refunds are USDC either way). */
  currency: Currency;
};

/**
 * An invoice as the sweep policy sees it: its status and what it asks for after its credit
 * notes (moneyRules' invoicedAmount), which is what of its payments is the merchant's revenue.
 */
export const invoiceSweepOwner = (invoice: {
  status: StoredInvoiceStatus;
  total_amount: bigint;
  credited_amount: bigint;
}): SweepOwner => ({
  kind: "invoice",
  status: invoice.status,
  amount: invoicedAmount(invoice.total_amount, invoice.credited_amount),
});

/** The refund's owner locked (refunds of one owner serialise on its row), as the sweep policy sees it. */
export async function lockedSweepOwner(trx: Executor, target: RefundTarget): Promise<SweepOwner> {
  if (target.owner.invoiceId) {
    const invoice = await lockInvoiceByDepositAddress(trx, target.depositAddress);
    return invoice ? invoiceSweepOwner(invoice) : target.sweepOwner;
  }
  const link = await lockLinkByDepositAddress(trx, target.depositAddress);
  return link ? { kind: "link", status: link.status, amount: link.amount } : target.sweepOwner;
}
