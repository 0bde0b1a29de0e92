import type { Currency } from "../domain/currencies.ts";
import { formatAmountForDisplay } from "../domain/money.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";
import { paymentInstructions } from "./paymentInstructions.ts";

export type VendorInvoiceEmailData = {
  invoiceNumber: string;
  merchantName: string;
  vendorName: string;
  /** In the invoice's currency. */
  totalAmount: bigint;
  /** What the invoice is priced in; USDC when absent. */
  currency?: Currency;
  dueDate: string;
  invoiceUrl: string;
  depositAddress: string;
  /** The invoice's x402 resource, for the vendor's accounts-payable software. */
  x402Url?: string;
};

/** The email a vendor receives with an invoice: subject, plain text and HTML (PDF attached). */
export function vendorInvoiceEmail(data: VendorInvoiceEmailData) {
  const amount = formatAmountForDisplay(data.totalAmount, data.currency ?? "USDC");
  const pay = paymentInstructions(data.currency ?? "USDC", data.depositAddress);
  const subject = `Invoice ${data.invoiceNumber} from ${data.merchantName}: ${amount} due ${data.dueDate}`;
  const text = [
    `Hello ${data.vendorName},`,
    "",
    `${data.merchantName} has sent you invoice ${data.invoiceNumber} for ${amount}, due ${data.dueDate}.`,
    "",
    `View and pay it online: ${data.invoiceUrl}`,
    "",
    ...pay.text,
    "Only USDC on Base is credited. The PDF is attached.",
    ...(data.x402Url
      ? [
          "",
          `Accounts-payable software and agents can pay it over x402 (no ETH needed): ${data.x402Url}`,
        ]
      : []),
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<p>Hello ${escapeHtml(data.vendorName)},</p>
<p><strong>${escapeHtml(data.merchantName)}</strong> has sent you invoice <strong>${escapeHtml(data.invoiceNumber)}</strong>
for <strong>${escapeHtml(amount)}</strong>, due ${escapeHtml(data.dueDate)}.</p>
<p><a href="${escapeHtml(data.invoiceUrl)}" style="display:inline-block;background:#1652f0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">View and pay invoice</a></p>
${pay.html}
<p style="color:#616e7c;font-size:13px">Only USDC on Base is credited. The PDF is attached.</p>
${data.x402Url ? `<p style="color:#616e7c;font-size:13px">Accounts-payable software and agents can pay it over x402 (no ETH needed): <a href="${escapeHtml(data.x402Url)}">${escapeHtml(data.x402Url)}</a></p>\n` : ""}</body></html>`;
  return { subject, text, html };
}
