import { formatUsdcForDisplay } from "../domain/money.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";

/** The emails of void invoices and refunds: subject, text and HTML, plain facts only. */
type Content = { subject: string; text: string; html: string };

const page = (title: string, paragraphs: string[]): string =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<h2 style="font-size:18px">${escapeHtml(title)}</h2>
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
</body></html>`;

const usdc = (units: bigint) => `${formatUsdcForDisplay(units)} USDC`;

/** The vendor's notice that an invoice they were sent is void: nothing is to be paid. */
export function invoiceVoidEmail(data: {
  invoiceNumber: string;
  merchantName: string;
  invoiceUrl: string;
}): Content {
  const subject = `${data.invoiceNumber} from ${data.merchantName} is void: do not pay it`;
  const lines = [
    `${data.merchantName} has voided invoice ${data.invoiceNumber}. Nothing is due: please do not pay it.`,
    "",
    "If you have already sent a payment, contact the merchant: it is held and can be refunded.",
    "",
    `Invoice page: ${data.invoiceUrl}`,
  ];
  return {
    subject,
    text: lines.join("\n"),
    html: page(subject, [
      `${escapeHtml(data.merchantName)} has voided invoice ${escapeHtml(data.invoiceNumber)}. Nothing is due: please do not pay it.`,
      "If you have already sent a payment, contact the merchant: it is held and can be refunded.",
      `<a href="${escapeHtml(data.invoiceUrl)}">Open the invoice</a>`,
    ]),
  };
}

/** The payer's one-time link to name the address a refund goes to, with the exchange warning. */
export function refundClaimEmail(data: {
  what: string;
  merchantName: string;
  amount: bigint;
  claimUrl: string;
  expiresAt: Date;
}): Content {
  const subject = `${data.merchantName} is refunding ${usdc(data.amount)}: tell us where to send it`;
  const warning =
    "Give an address of a wallet you control on Base. Do not give an exchange deposit address, and do not assume the address you paid from can receive it: a payment sent from an exchange comes from the exchange's shared wallet, and money sent back there may be lost.";
  const lines = [
    `${data.merchantName} is refunding ${usdc(data.amount)} for ${data.what}.`,
    "",
    `Open this link to name the address the refund is sent to (it works once, until ${data.expiresAt.toISOString().slice(0, 10)}):`,
    data.claimUrl,
    "",
    warning,
  ];
  return {
    subject,
    text: lines.join("\n"),
    html: page(subject, [
      `${escapeHtml(data.merchantName)} is refunding <strong>${escapeHtml(usdc(data.amount))}</strong> for ${escapeHtml(data.what)}.`,
      `<a href="${escapeHtml(data.claimUrl)}">Name the address to refund to</a> (the link works once, until ${escapeHtml(data.expiresAt.toISOString().slice(0, 10))}).`,
      `<strong>${escapeHtml(warning)}</strong>`,
    ]),
  };
}

/** The merchant's and the vendor's notice that a refund was paid. */
export function refundConfirmedEmail(data: {
  what: string;
  amount: bigint;
  to: string;
  txHash: string | null;
  explorerUrl: string | null;
}): Content {
  const subject = `Refund of ${usdc(data.amount)} for ${data.what} was paid`;
  const txUrl = data.txHash && data.explorerUrl ? `${data.explorerUrl}/tx/${data.txHash}` : null;
  const lines = [
    `A refund of ${usdc(data.amount)} for ${data.what} was paid to ${data.to}.`,
    ...(data.txHash ? [`Transaction: ${data.txHash}`] : []),
    ...(txUrl ? [`View on the block explorer: ${txUrl}`] : []),
  ];
  return {
    subject,
    text: lines.join("\n"),
    html: page(subject, [
      `A refund of <strong>${escapeHtml(usdc(data.amount))}</strong> for ${escapeHtml(data.what)} was paid to <code>${escapeHtml(data.to)}</code>.`,
      ...(data.txHash
        ? [
            `Transaction: ${txUrl ? `<a href="${escapeHtml(txUrl)}"><code>${escapeHtml(data.txHash)}</code></a>` : `<code>${escapeHtml(data.txHash)}</code>`}`,
          ]
        : []),
    ]),
  };
}

/** The merchant's notice that a refund could not be paid, and why. */
export function refundFailedEmail(data: { what: string; amount: bigint; reason: string }): Content {
  const subject = `Refund of ${usdc(data.amount)} for ${data.what} failed`;
  const lines = [
    `The refund of ${usdc(data.amount)} for ${data.what} was not paid: ${data.reason}.`,
    "",
    "The money it would have taken is refundable again: request another refund.",
  ];
  return {
    subject,
    text: lines.join("\n"),
    html: page(subject, [
      `The refund of ${escapeHtml(usdc(data.amount))} for ${escapeHtml(data.what)} was not paid: ${escapeHtml(data.reason)}.`,
      "The money it would have taken is refundable again: request another refund.",
    ]),
  };
}
