import type { FiatCurrency } from "../domain/currencies.ts";
import { formatAmountForDisplay } from "../domain/money.ts";
import { invoiceAmountDue, invoicedAmount } from "../domain/moneyRules.ts";
import type { PaymentEventType } from "../domain/paymentState.ts";
import type { StoredInvoiceStatus } from "../domain/statuses.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";

type InvoiceEventType = Extract<PaymentEventType, `invoice.${string}`>;

export type MerchantPaymentEmailData = {
  type: InvoiceEventType;
  invoiceNumber: string;
  vendorName: string;
  /** The invoice's amounts (total, credited, received) are in its currency: see `priced`. */
  totalAmount: bigint;
  /** What its credit notes took off the total (moneyRules' invoicedAmount). */
  credited: bigint;
  /** What the payments counted for: the event's paid_amount. */
  received: bigint;
  /**
   * For an invoice priced in a currency: that currency, and the USDC that arrived (what the
   * payments were converted from). Absent: priced in USDC.
   */
  priced?: { currency: FiatCurrency; receivedUsdc: bigint };
  /** The invoice's status the event left it in: what is still due depends on it. */
  status: StoredInvoiceStatus;
  txHash: string | null;
  /** None on a local chain: its transactions are on no public explorer. */
  explorerUrl: string | null;
  invoiceUrl: string;
  /**
   * The invoice's id, for the refund instructions of an overpayment (its dashboard page and
   * API route). Without it the email names the route with `{id}` and the dashboard's list.
   */
  invoiceId?: string;
};

/**
 * What the merchant can do about an overpayment: where in the dashboard and which API call.
 * The dashboard lives on PAY_URL, the origin of the hosted page (`{PAY_URL}/i/{slug}`).
 */
function excessRefundLines(data: MerchantPaymentEmailData, excess: string): string[] {
  const payUrl = data.invoiceUrl.replace(/\/i\/[^/]+$/, "");
  const dashboard = data.invoiceId
    ? `${payUrl}/dashboard/invoices/${data.invoiceId}`
    : `${payUrl}/dashboard/invoices`;
  return [
    `The payer sent ${excess} more than the invoice total. Remit holds it; nothing is returned unless you refund it.`,
    `Refund it from the dashboard: ${dashboard}`,
    `or with the API: POST /api/invoices/${data.invoiceId ?? "{id}"}/refunds`,
  ];
}

const headline: Record<InvoiceEventType, (d: MerchantPaymentEmailData) => string> = {
  "invoice.paid": (d) => `${d.invoiceNumber} is paid in full`,
  "invoice.partial": (d) => `Partial payment on ${d.invoiceNumber}`,
  "invoice.excess": (d) => `${d.invoiceNumber} was overpaid`,
  "invoice.payment_reversed": (d) =>
    `A payment on ${d.invoiceNumber} was reversed by a chain reorganisation`,
  "invoice.unexpected_payment": (d) =>
    `A payment arrived on ${d.invoiceNumber}, which is void; it is held for refund`,
  "invoice.refunded": (d) => `A refund on ${d.invoiceNumber} was paid`,
  // The due-date events go to webhook endpoints only; named here for completeness.
  "invoice.will_be_due": (d) => `${d.invoiceNumber} is due soon`,
  "invoice.overdue": (d) => `${d.invoiceNumber} is overdue`,
};

/** The merchant's notice of a payment (or of its reversal): amounts, tx hash, explorer link. */
export function merchantPaymentEmail(data: MerchantPaymentEmailData) {
  const amount = (units: bigint) => formatAmountForDisplay(units, data.priced?.currency ?? "USDC");
  // What arrived, in both units when they differ: "100.00 EUR (110.00 USDC)".
  const receivedShown = data.priced
    ? `${amount(data.received)} (${formatAmountForDisplay(data.priced.receivedUsdc, "USDC")})`
    : amount(data.received);
  const due = invoiceAmountDue(data.status, data.totalAmount, data.received, data.credited);
  const invoiced = invoicedAmount(data.totalAmount, data.credited);
  const balance =
    data.type === "invoice.unexpected_payment"
      ? "The invoice is void: nothing is due. Refund this money with POST /api/invoices/{id}/refunds (a claim link lets the payer name the address)."
      : due > 0n
        ? `Still due: ${amount(due)}`
        : data.received > invoiced
          ? `Received in excess: ${amount(data.received - invoiced)}`
          : "Nothing is due.";
  // Amount due is never negative: the excess is what arrived beyond the total.
  const refund =
    data.type === "invoice.excess" && data.received > invoiced
      ? excessRefundLines(data, amount(data.received - invoiced))
      : [];
  const txUrl = data.txHash && data.explorerUrl ? `${data.explorerUrl}/tx/${data.txHash}` : null;
  const subject = `${headline[data.type](data)}: ${receivedShown} received`;
  const lines = [
    `${headline[data.type](data)}.`,
    "",
    `Invoice: ${data.invoiceNumber} (${data.vendorName})`,
    `Invoice total: ${amount(data.totalAmount)}`,
    `Received so far: ${receivedShown}`,
    balance,
    ...(refund.length ? ["", ...refund, ""] : []),
    ...(data.txHash ? [`Transaction: ${data.txHash}`] : []),
    ...(txUrl ? [`View on the block explorer: ${txUrl}`] : []),
    "",
    `Invoice page: ${data.invoiceUrl}`,
  ];
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<h2 style="font-size:18px">${escapeHtml(headline[data.type](data))}</h2>
<table style="border-collapse:collapse">
<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Invoice</td><td>${escapeHtml(data.invoiceNumber)} (${escapeHtml(data.vendorName)})</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Invoice total</td><td>${escapeHtml(amount(data.totalAmount))}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Received so far</td><td><strong>${escapeHtml(receivedShown)}</strong></td></tr>
<tr><td colspan="2" style="padding-top:4px">${escapeHtml(balance)}</td></tr>
${data.txHash ? `<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Transaction</td><td>${txUrl ? `<a href="${escapeHtml(txUrl)}"><code>${escapeHtml(data.txHash)}</code></a>` : `<code>${escapeHtml(data.txHash)}</code>`}</td></tr>` : ""}
</table>
${refund.length ? `<p>${escapeHtml(refund[0] ?? "")}</p><p>${escapeHtml(refund[1] ?? "").replace(/https?:\/\/\S+/, (url) => `<a href="${url}">${url}</a>`)}<br>${escapeHtml(refund[2] ?? "")}</p>` : ""}
<p><a href="${escapeHtml(data.invoiceUrl)}">Open the invoice</a></p>
</body></html>`;
  return { subject, text: lines.join("\n"), html };
}
