import type { Currency } from "../domain/currencies.ts";
import { formatAmountForDisplay } from "../domain/money.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";

/**
 * The vendor's credit note (its PDF attached by the composer): what it takes off which invoice,
 * why, and what that invoice asks for now, in the invoice's currency (a credit note is in it).
 */
export function creditNoteEmail(data: {
  creditNoteNumber: string;
  invoiceNumber: string;
  merchantName: string;
  amount: bigint;
  /** What the invoice, and so the credit note, is priced in; USDC when absent. */
  currency?: Currency;
  reason: string;
  /** What the invoice still asks for after it (moneyRules' invoiceAmountDue). */
  amountDue: bigint;
  invoiceUrl: string;
}): { subject: string; text: string; html: string } {
  const amount = (units: bigint) => formatAmountForDisplay(units, data.currency ?? "USDC");
  const subject = `Credit note ${data.creditNoteNumber} from ${data.merchantName}: ${amount(data.amount)} off ${data.invoiceNumber}`;
  const due =
    data.amountDue > 0n
      ? `Invoice ${data.invoiceNumber} now asks for ${amount(data.amountDue)}.`
      : `Nothing more is due on invoice ${data.invoiceNumber}.`;
  const paragraphs = [
    `${data.merchantName} has issued credit note ${data.creditNoteNumber}, taking ${amount(data.amount)} off invoice ${data.invoiceNumber}.`,
    `Reason: ${data.reason}`,
    due,
    "The credit note is attached as a PDF for your records.",
  ];
  return {
    subject,
    text: [...paragraphs, "", `Invoice page: ${data.invoiceUrl}`].join("\n\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<h2 style="font-size:18px">${escapeHtml(subject)}</h2>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
<p><a href="${escapeHtml(data.invoiceUrl)}">Open the invoice</a></p>
</body></html>`,
  };
}
