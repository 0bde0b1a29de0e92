import { getAddress } from "viem";
import type { Actor } from "../../app/actor.ts";
import {
  authorizedInvoiceFacts,
  type InvoiceFacts,
  type InvoiceRow,
  invoiceFacts,
} from "../../app/invoices/invoiceDetail.ts";
import type { Invoice, InvoiceStatusResponse } from "../../app/invoices/schema.ts";
import { paymentUriFor, presentCurrencyAmounts } from "../../app/payments/presentCurrency.ts";
import { presentRefund } from "../../app/refunds/present.ts";
import { BASE_CHAIN_ID } from "../../domain/constants.ts";
import { presentDepositPayments } from "../../domain/depositPaymentView.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import {
  invoiceTaxView,
  presentStoredLine,
  storedLineTax,
  taxAmountFields,
} from "../../domain/invoiceTaxView.ts";
import { invoiceUrls, x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { receivedInOwnUnit } from "../../domain/moneyRules.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import { presentSweep } from "../../domain/sweepView.ts";
import type { AppDeps } from "../deps.ts";

/** `GET /api/invoices/{id}`: every stored field but the webhook secret, plus what is derived. */
function presentInvoice(
  deps: Pick<AppDeps, "baseUrl" | "payUrl">,
  {
    invoice,
    lines,
    pdfSha256,
    state,
    transfers,
    sweeps,
    refunds,
    money,
    creditNotes,
    currency,
    today,
  }: InvoiceFacts,
): Invoice {
  const deposit = getAddress(invoice.deposit_address);
  const paid = money.received;
  // Nothing is due once `paid` (a tolerated shortfall included) or `void`.
  const due = money.due;
  return {
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    slug: invoice.slug,
    status: reportedStatus(invoice.status, invoice.due_date, today),
    stored_status: invoice.status,
    merchant_email: invoice.merchant_email,
    merchant_name_snapshot: invoice.merchant_name_snapshot,
    merchant_address_snapshot: invoice.merchant_address_snapshot,
    vendor_email: invoice.vendor_email,
    vendor_name: invoice.vendor_name,
    vendor_address: invoice.vendor_address,
    line_items: lines.map(presentStoredLine),
    total_amount: formatUsdc(invoice.total_amount),
    currency: invoice.currency,
    ...presentCurrencyAmounts(currency, state),
    chain_id: BASE_CHAIN_ID,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date,
    notes: invoice.notes,
    wallet_type: invoice.wallet_type,
    wallet_address: getAddress(invoice.wallet_address),
    deposit_address: deposit,
    payment_uri: paymentUriFor(deposit, currency, due > 0n ? due : invoice.total_amount),
    webhook_url: invoice.webhook_url,
    sent_at: invoice.sent_at?.toISOString() ?? null,
    created_at: invoice.created_at.toISOString(),
    ...invoiceUrls(deps, invoice.id, invoice.slug),
    x402_url: x402Url(deps, invoice.slug),
    pdf_sha256: pdfSha256,
    paid_amount: formatUsdc(paid),
    amount_due: formatUsdc(due),
    underpayment_tolerance: formatUsdc(invoice.underpayment_tolerance),
    payments: presentDepositPayments(
      transfers,
      invoice.deposit_address,
      state.counted,
      currency?.converted,
    ),
    // Settlement: each sweep of the deposit address to wallet_address.
    sweeps: sweeps.map(presentSweep),
    refunds: refunds.map(presentRefund),
    refunded_amount: formatUsdc(money.refunded),
    voided_at: invoice.voided_at?.toISOString() ?? null,
    schedule_id: invoice.schedule_id,
    metadata: invoice.metadata,
    ...presentTax(invoice, lines),
    // Only once credited (issue 44): an invoice without credit notes is the spec's, unchanged.
    ...(creditNotes.length
      ? {
          credited_amount: formatUsdc(money.credited),
          credit_notes: creditNotes.map((note) => ({
            credit_note_id: note.id,
            credit_note_number: note.credit_note_number,
            total_amount: formatUsdc(note.total_amount),
            reason: note.reason,
            created_at: note.created_at.toISOString(),
          })),
        }
      : {}),
  };
}

/**
 * The tax fields of the detail (issue 44, an addition to the spec): the parties' tax fields
 * that were given, and on an invoice with tax its subtotal, tax and breakdown, derived from its
 * lines by the one rule (domain/invoiceTaxView.ts). An invoice without any has none of them.
 */
function presentTax(invoice: InvoiceRow, lines: InvoiceFacts["lines"]): Partial<Invoice> {
  const parties = Object.fromEntries(
    (
      [
        "merchant_tax_id",
        "vendor_tax_id",
        "merchant_country",
        "vendor_country",
        "tax_exemption_reason",
      ] as const
    ).flatMap((field) => (invoice[field] !== null ? [[field, invoice[field]]] : [])),
  );
  const view = invoiceTaxView(
    invoice,
    lines.map((line) => ({ lineTotal: line.line_total, tax: storedLineTax(line) })),
  );
  if (!view) return parties;
  return { ...parties, ...taxAmountFields(view) };
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
    paid_amount: formatUsdc(receivedInOwnUnit(invoice.currency, state)),
    // Priced in a currency: paid_amount is in it; what arrived in USDC is told beside.
    ...(invoice.currency === "USDC"
      ? {}
      : { currency: invoice.currency, paid_amount_usdc: formatUsdc(state.received) }),
    tx_hash: state.latestTxHash,
    paid_at: state.latestPaidAt.toISOString(),
    ...refunds,
  };
}

/** The full invoice body of an invoice a use case just changed (POST …/send, …/void). */
export async function invoiceBody(
  deps: Pick<AppDeps, "db" | "indexerSchema" | "rpcUrl" | "baseUrl" | "payUrl" | "pdf">,
  invoice: InvoiceRow,
): Promise<Invoice> {
  return presentInvoice(deps, await invoiceFacts(deps, invoice));
}

/** `GET /api/invoices/{id}`: the invoice, if the actor may see it (app/'s read model). */
export async function authorizedInvoiceBody(
  deps: Pick<AppDeps, "db" | "indexerSchema" | "rpcUrl" | "baseUrl" | "payUrl" | "pdf">,
  actor: Actor,
  id: string,
): Promise<Invoice> {
  return presentInvoice(deps, await authorizedInvoiceFacts(deps, actor, id));
}
