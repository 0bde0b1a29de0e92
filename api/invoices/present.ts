import { getAddress } from "viem";
import { BASE_CHAIN_ID } from "../../chain/constants.ts";
import type { InvoiceRow, LineItemRow } from "../../db/queries/invoices.ts";
import type { IndexedPayment } from "../../db/queries/payments.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../domain/money.ts";
import { usdcPaymentUri } from "../../domain/paymentUri.ts";
import type { AppDeps } from "../deps.ts";
import { invoiceUrls } from "./urls.ts";

const received = (payments: IndexedPayment[]) => payments.reduce((sum, p) => sum + p.value, 0n);

/** `GET /api/invoices/{id}`: every stored field but the webhook secret, plus what is derived. */
export function presentInvoice(
  deps: Pick<AppDeps, "baseUrl" | "payUrl">,
  invoice: InvoiceRow,
  lines: LineItemRow[],
  pdfSha256: string,
  payments: IndexedPayment[],
) {
  const deposit = getAddress(invoice.deposit_address);
  const paid = received(payments);
  const due = invoice.total_amount - paid;
  return {
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    slug: invoice.slug,
    status: reportedStatus(invoice.status, invoice.due_date, utcToday()),
    stored_status: invoice.status,
    merchant_email: invoice.merchant_email,
    merchant_name_snapshot: invoice.merchant_name_snapshot,
    merchant_address_snapshot: invoice.merchant_address_snapshot,
    vendor_email: invoice.vendor_email,
    vendor_name: invoice.vendor_name,
    vendor_address: invoice.vendor_address,
    line_items: lines.map((line) => ({
      description: line.description,
      quantity: Number(line.quantity),
      unit_price: formatUsdc(line.unit_price),
      line_total: formatUsdc(line.line_total),
    })),
    total_amount: formatUsdc(invoice.total_amount),
    currency: "USDC" as const,
    chain_id: BASE_CHAIN_ID as 8453,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date,
    notes: invoice.notes,
    wallet_type: invoice.wallet_type,
    wallet_address: getAddress(invoice.wallet_address),
    deposit_address: deposit,
    payment_uri: usdcPaymentUri(deposit, due > 0n ? due : invoice.total_amount),
    webhook_url: invoice.webhook_url,
    sent_at: invoice.sent_at?.toISOString() ?? null,
    created_at: invoice.created_at.toISOString(),
    ...invoiceUrls(deps, invoice.id, invoice.slug),
    pdf_sha256: pdfSha256,
    paid_amount: formatUsdc(paid),
    amount_due: formatUsdc(due > 0n ? due : 0n),
    payments: payments.map((p) => ({
      tx_hash: p.txHash,
      log_index: p.logIndex,
      from: getAddress(p.from),
      amount: formatUsdc(p.value),
      block_number: Number(p.blockNumber),
      paid_at: p.paidAt.toISOString(),
    })),
  };
}

/**
 * `GET /api/invoices/{id}/status` (§2.4): the status, and once anything was received (paid,
 * partial or excess) the amount received, the latest payment's tx hash and time.
 */
export function presentStatus(invoice: InvoiceRow, payments: IndexedPayment[]) {
  const status = reportedStatus(invoice.status, invoice.due_date, utcToday());
  const latest = payments.at(-1);
  if (!latest || status === "draft" || status === "sent" || status === "overdue") return { status };
  return {
    status,
    paid_amount: formatUsdc(received(payments)),
    tx_hash: latest.txHash,
    paid_at: latest.paidAt.toISOString(),
  };
}
