import { getAddress } from "viem";
import type { Currency } from "../../domain/currencies.ts";
import { invoiceTaxView } from "../../domain/invoiceTaxView.ts";
import type { PricedLineItem } from "../../domain/invoiceTotals.ts";
import { usdcPaymentUri } from "../../domain/paymentUri.ts";
import type { InvoicePdfData } from "../../pdf/invoiceDocument.ts";

/** The stored fields an invoice's PDF is made of: the PDF is a function of the record alone. */
export type InvoiceRecordForPdf = {
  invoice_number: string;
  issue_date: string;
  due_date: string;
  created_at: Date;
  merchant_name_snapshot: string;
  merchant_address_snapshot: string;
  merchant_email: string;
  vendor_name: string;
  vendor_email: string;
  vendor_address?: string | null;
  notes?: string | null;
  deposit_address: string;
  total_amount: bigint;
  /** What its amounts are in (migration 0041); absent: USDC. */
  currency?: Currency;
  /** Migration 0039: absent (null) on an invoice without tax. */
  merchant_tax_id?: string | null;
  vendor_tax_id?: string | null;
  merchant_country?: string | null;
  vendor_country?: string | null;
  tax_exemption_reason?: string | null;
};

/**
 * What the PDF shows, from the invoice's record and its priced lines, so that rendering the
 * stored record again gives the stored bytes.
 */
export function invoicePdfData(
  invoice: InvoiceRecordForPdf,
  lines: readonly PricedLineItem[],
  invoiceUrl: string,
): InvoicePdfData {
  const depositAddress = getAddress(invoice.deposit_address);
  const currency = invoice.currency ?? "USDC";
  return {
    invoiceNumber: invoice.invoice_number,
    issueDate: invoice.issue_date,
    dueDate: invoice.due_date,
    createdAt: invoice.created_at,
    merchant: {
      name: invoice.merchant_name_snapshot,
      address: invoice.merchant_address_snapshot,
      email: invoice.merchant_email,
    },
    vendor: {
      name: invoice.vendor_name,
      email: invoice.vendor_email,
      address: invoice.vendor_address ?? null,
    },
    lineItems: [...lines],
    totalAmount: invoice.total_amount,
    currency,
    tax: invoiceTaxView(invoice, lines),
    notes: invoice.notes ?? null,
    depositAddress,
    // Priced in a currency, no USDC amount is fixed at issue: the rate moves (pdf/paymentBox.ts).
    paymentUri: usdcPaymentUri(depositAddress, currency === "USDC" ? invoice.total_amount : null),
    invoiceUrl,
  };
}
