import { getAddress } from "viem";
import type { Invoice, InvoiceStatusResponse } from "../../app/invoices/schema.ts";
import { presentRefund } from "../../app/refunds/present.ts";
import { loadInvoiceDetails } from "../../db/queries/invoiceDetails.ts";
import type { InvoiceRow, LineItemRow } from "../../db/queries/invoices.ts";
import type { RefundRow } from "../../db/queries/refunds.ts";
import { BASE_CHAIN_ID } from "../../domain/constants.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { invoiceUrls, x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { invoiceAmountDue, refundedAmount } from "../../domain/moneyRules.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";
import { usdcPaymentUri } from "../../domain/paymentUri.ts";
import { presentSweep, type SweepView } from "../../domain/sweepView.ts";
import type { AppDeps } from "../deps.ts";

export type PresentInvoiceParameters = {
  /** The public origins the invoice's URLs are built on. */
  deps: Pick<AppDeps, "baseUrl" | "payUrl">;
  invoice: InvoiceRow;
  lines: LineItemRow[];
  pdfSha256: string;
  /** What the reconcile job last derived for the deposit address. */
  state: PaymentState;
  /** Every indexed USDC transfer to the deposit address. */
  transfers: IndexedTransfer[];
  sweeps?: SweepView[];
  refunds?: RefundRow[];
};

/** `GET /api/invoices/{id}`: every stored field but the webhook secret, plus what is derived. */
function presentInvoice({
  deps,
  invoice,
  lines,
  pdfSha256,
  state,
  transfers,
  sweeps = [],
  refunds = [],
}: PresentInvoiceParameters): Invoice {
  const deposit = getAddress(invoice.deposit_address);
  const paid = state.received;
  // Nothing is due once `paid` (a tolerated shortfall included) or `void`.
  const due = invoiceAmountDue(invoice.status, invoice.total_amount, paid);
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
    line_items: lines.map((line): Invoice["line_items"][number] => ({
      description: line.description,
      quantity: Number(line.quantity),
      unit_price: formatUsdc(line.unit_price),
      line_total: formatUsdc(line.line_total),
    })),
    total_amount: formatUsdc(invoice.total_amount),
    currency: "USDC",
    chain_id: BASE_CHAIN_ID,
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
    x402_url: x402Url(deps, invoice.slug),
    pdf_sha256: pdfSha256,
    paid_amount: formatUsdc(paid),
    amount_due: formatUsdc(due),
    underpayment_tolerance: formatUsdc(invoice.underpayment_tolerance),
    // Every USDC transfer indexed to the deposit address; `counted` once it has the
    // confirmations it needs (only counted ones are in paid_amount).
    payments: transfers
      .filter((t) => t.from.toLowerCase() !== invoice.deposit_address)
      .map((t): Invoice["payments"][number] => ({
        tx_hash: t.txHash,
        log_index: Number(t.id.split("-")[1]),
        from: getAddress(t.from),
        amount: formatUsdc(t.value),
        block_number: Number(t.blockNumber),
        paid_at: t.paidAt.toISOString(),
        counted: state.counted.includes(t.id),
      })),
    // Settlement: each sweep of the deposit address to wallet_address.
    sweeps,
    refunds: refunds.map(presentRefund),
    refunded_amount: formatUsdc(refundedAmount(refunds)),
    voided_at: invoice.voided_at?.toISOString() ?? null,
    schedule_id: invoice.schedule_id,
  };
}

/**
 * `GET /api/invoices/{id}/status` (§2.4): the status, and once anything was received (paid,
 * partial or excess) the amount received, the latest payment's tx hash and time.
 */
export function presentStatus(
  invoice: InvoiceRow,
  state: PaymentState,
  refunded = 0n,
): InvoiceStatusResponse {
  const status = reportedStatus(invoice.status, invoice.due_date, utcToday());
  // Only once a refund was paid: the spec's body is unchanged otherwise.
  const refunds = refunded > 0n ? { refunded_amount: formatUsdc(refunded) } : {};
  // Void: nothing is due, so none of the paid case's fields (a payment there is held for refund).
  if (status === "void") return { status, ...refunds };
  if (
    status === "draft" ||
    status === "sent" ||
    status === "overdue" ||
    !state.latestTxHash ||
    !state.latestPaidAt
  ) {
    return { status, ...refunds };
  }
  return {
    status,
    paid_amount: formatUsdc(state.received),
    tx_hash: state.latestTxHash,
    paid_at: state.latestPaidAt.toISOString(),
    ...refunds,
  };
}

/** The full invoice body (GET /api/invoices/{id}, POST …/send): details loaded, then presented. */
export async function invoiceBody(
  deps: Pick<AppDeps, "db" | "indexerSchema" | "baseUrl" | "payUrl">,
  invoice: InvoiceRow,
) {
  const { sweeps, ...details } = await loadInvoiceDetails(deps.db, deps.indexerSchema, invoice);
  return presentInvoice({ deps, invoice, ...details, sweeps: sweeps.map(presentSweep) });
}
