import { escapeHtml } from "../internal/escapeHtml.ts";

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">${body}</body></html>`;

/** The one-time link that claims a merchant account (30 minutes; the page asks before acting). */
export function claimLinkEmail(data: { claimUrl: string; email: string }) {
  const subject = "Your Remit merchant account: confirm it's you";
  const text = [
    `Someone (we hope you) asked to claim the Remit merchant account of ${data.email}.`,
    "",
    `Open this link within 30 minutes and press the button to get your API key:`,
    data.claimUrl,
    "",
    "The link works once. If you did not ask for it, ignore this email: nothing happens until the button is pressed.",
  ].join("\n");
  const html =
    page(`<p>Someone (we hope you) asked to claim the Remit merchant account of <strong>${escapeHtml(data.email)}</strong>.</p>
<p><a href="${escapeHtml(data.claimUrl)}" style="display:inline-block;background:#1652f0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Claim the account</a></p>
<p>The link works once, for 30 minutes, and asks you to press a button before anything happens.</p>
<p style="color:#616e7c;font-size:13px">If you did not ask for it, ignore this email.</p>`);
  return { subject, text, html };
}

/** The one-time link that signs in to the dashboard (30 minutes; the page asks before acting). */
export function signInLinkEmail(data: { signInUrl: string; email: string }) {
  const subject = "Sign in to your Remit dashboard";
  const text = [
    `Someone (we hope you) asked to sign in to the Remit dashboard of ${data.email}.`,
    "",
    "Open this link within 30 minutes and press the button to sign in:",
    data.signInUrl,
    "",
    "The link works once. If you did not ask for it, ignore this email: nothing happens until the button is pressed.",
  ].join("\n");
  const html =
    page(`<p>Someone (we hope you) asked to sign in to the Remit dashboard of <strong>${escapeHtml(data.email)}</strong>.</p>
<p><a href="${escapeHtml(data.signInUrl)}" style="display:inline-block;background:#1652f0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Sign in</a></p>
<p>The link works once, for 30 minutes, and asks you to press a button before anything happens.</p>
<p style="color:#616e7c;font-size:13px">If you did not ask for it, ignore this email.</p>`);
  return { subject, text, html };
}

/**
 * Sent the moment a payout wallet is added: a stolen key cannot redirect the merchant's money
 * without the merchant hearing of it.
 */
export function payoutWalletAddedEmail(data: { address: string; by: string; addedAt: Date }) {
  const subject = `A payout wallet was added to your Remit account: ${data.address}`;
  const when = `${data.addedAt.toISOString().replace("T", " ").slice(0, 19)} UTC`;
  const text = [
    `The wallet ${data.address} was added to your Remit account's payout wallets at ${when}, with ${data.by}.`,
    "From now on, byo invoices and payment links made with your keys may pay into it.",
    "",
    "If this was not you: revoke that key at once (DELETE /api/keys/{id}), remove the wallet (DELETE /api/merchant/wallets/{address}) and read your audit trail (GET /api/audit).",
  ].join("\n");
  const html =
    page(`<p>The wallet <code style="font-size:14px">${escapeHtml(data.address)}</code> was added to your Remit account's payout wallets at ${escapeHtml(when)}, with ${escapeHtml(data.by)}.</p>
<p>From now on, <code>byo</code> invoices and payment links made with your keys may pay into it.</p>
<p><strong>If this was not you</strong>: revoke that key at once (<code>DELETE /api/keys/{id}</code>), remove the wallet (<code>DELETE /api/merchant/wallets/{address}</code>) and read your audit trail (<code>GET /api/audit</code>).</p>`);
  return { subject, text, html };
}
