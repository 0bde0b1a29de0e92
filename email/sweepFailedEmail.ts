import { formatUsdcForDisplay } from "../domain/money.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";

export type SweepFailedEmailData = {
  invoiceNumber: string;
  amount: bigint;
  destination: string;
  depositAddress: string;
  /** Why USDC refused the transfer (its revert reason), for people. */
  reason: string;
  invoiceUrl: string;
};

/**
 * The merchant's notice that a payment's funds could not be moved to their wallet and will
 * not be retried: the funds stay on the deposit address until the operator moves them.
 */
export function sweepFailedEmail(data: SweepFailedEmailData) {
  const amount = `${formatUsdcForDisplay(data.amount)} USDC`;
  const subject = `${data.invoiceNumber}: ${amount} could not be moved to your wallet`;
  const lines = [
    `The payment received for ${data.invoiceNumber} could not be moved to your wallet, and will not be retried automatically.`,
    "",
    `Amount: ${amount}`,
    `Your wallet: ${data.destination}`,
    `Reason: ${data.reason}`,
    "",
    `The funds are safe on the invoice's deposit address ${data.depositAddress}. The operator of this Remit service can move them once the cause is resolved (\`remit deposits sweep\`).`,
    "",
    `Invoice page: ${data.invoiceUrl}`,
  ];
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<h2 style="font-size:18px">${escapeHtml(subject)}</h2>
<p>The payment received for ${escapeHtml(data.invoiceNumber)} could not be moved to your wallet, and will not be retried automatically.</p>
<table style="border-collapse:collapse">
<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Amount</td><td>${escapeHtml(amount)}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Your wallet</td><td><code>${escapeHtml(data.destination)}</code></td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#616e7c">Reason</td><td>${escapeHtml(data.reason)}</td></tr>
</table>
<p>The funds are safe on the invoice's deposit address <code>${escapeHtml(data.depositAddress)}</code>. The operator of this Remit service can move them once the cause is resolved.</p>
<p><a href="${escapeHtml(data.invoiceUrl)}">Open the invoice</a></p>
</body></html>`;
  return { subject, text: lines.join("\n"), html };
}
