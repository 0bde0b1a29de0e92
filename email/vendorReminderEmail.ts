import type { Currency } from "../domain/currencies.ts";
import { formatAmountForDisplay } from "../domain/money.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";
import { paymentInstructions } from "./paymentInstructions.ts";

export type VendorReminderEmailData = {
  invoiceNumber: string;
  merchantName: string;
  vendorName: string;
  /** What is still due when the reminder was sent (after partial payments), in its currency. */
  amountDue: bigint;
  totalAmount: bigint;
  /** What the invoice is priced in; USDC when absent. */
  currency?: Currency;
  dueDate: string;
  /** The day the reminder is about (the clock's today), to say "due in 3 days" or "overdue". */
  today: string;
  invoiceUrl: string;
  depositAddress: string;
};

const DAY_MS = 86_400_000;

/** A payment reminder to the vendor: what is still due, when, the link to pay (PDF attached). */
export function vendorReminderEmail(data: VendorReminderEmailData) {
  const amount = (units: bigint) => formatAmountForDisplay(units, data.currency ?? "USDC");
  const due = amount(data.amountDue);
  const pay = paymentInstructions(data.currency ?? "USDC", data.depositAddress);
  const days = Math.round(
    (Date.parse(`${data.dueDate}T00:00:00Z`) - Date.parse(`${data.today}T00:00:00Z`)) / DAY_MS,
  );
  const when =
    days > 0
      ? `is due on ${data.dueDate} (in ${days} day${days === 1 ? "" : "s"})`
      : days === 0
        ? `is due today (${data.dueDate})`
        : `was due on ${data.dueDate} (${-days} day${days === -1 ? "" : "s"} ago)`;
  const partly =
    data.amountDue < data.totalAmount
      ? ` Thank you for the payment received so far: ${amount(data.totalAmount - data.amountDue)} of ${amount(data.totalAmount)}.`
      : "";
  const subject = `Reminder: invoice ${data.invoiceNumber} from ${data.merchantName}: ${due} ${days < 0 ? "overdue" : `due ${data.dueDate}`}`;
  const text = [
    `Hello ${data.vendorName},`,
    "",
    `A reminder that invoice ${data.invoiceNumber} from ${data.merchantName} ${when}. Still due: ${due}.${partly}`,
    "",
    `View and pay it online: ${data.invoiceUrl}`,
    "",
    ...pay.text,
    "Only USDC on Base is credited. The PDF is attached. If you have paid already, thank you: please ignore this reminder.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<p>Hello ${escapeHtml(data.vendorName)},</p>
<p>A reminder that invoice <strong>${escapeHtml(data.invoiceNumber)}</strong> from <strong>${escapeHtml(data.merchantName)}</strong>
${escapeHtml(when)}. Still due: <strong>${escapeHtml(due)}</strong>.${escapeHtml(partly)}</p>
<p><a href="${escapeHtml(data.invoiceUrl)}" style="display:inline-block;background:#1652f0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">View and pay invoice</a></p>
${pay.html}
<p style="color:#616e7c;font-size:13px">Only USDC on Base is credited. The PDF is attached. If you have paid already, thank you: please ignore this reminder.</p>
</body></html>`;
  return { subject, text, html };
}
