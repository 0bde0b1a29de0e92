import { escapeHtml } from "../internal/escapeHtml.ts";

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">${body}</body></html>`;

/** The one-time link that claims a merchant account (30 minutes; the page asks before acting). */
export function claimLinkEmail(data: { claimUrl: string; email: string }) {
  const subject = "Your Remit merchant account: confirm it's you";
  const text = [
    `Someone (we hope you) asked to claim the Remit merchant account of ${data.email}.`,
    "",
    `Open this link within 30 minutes and press the button to get your API key and sign in to your dashboard:`,
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

/**
 * Sent to a new notification email: payment notices go there only once this link is followed,
 * so a stolen dashboard session cannot quietly redirect them.
 */
export function notificationEmailVerificationEmail(data: {
  verifyUrl: string;
  merchantEmail: string;
  hours: number;
}) {
  const subject = "Confirm where your Remit payment notices go";
  const text = [
    `The Remit account of ${data.merchantEmail} asked to send its payment notices to this address.`,
    "",
    `Open this link within ${data.hours} hours and press the button to confirm:`,
    data.verifyUrl,
    "",
    "Until then they keep going where they went. If you did not expect this, ignore this email: nothing changes.",
  ].join("\n");
  const html =
    page(`<p>The Remit account of <strong>${escapeHtml(data.merchantEmail)}</strong> asked to send its payment notices to this address.</p>
<p><a href="${escapeHtml(data.verifyUrl)}" style="display:inline-block;background:#1652f0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Confirm this address</a></p>
<p>The link works once, for ${data.hours} hours, and asks you to press a button before anything changes. Until then the notices keep going where they went.</p>
<p style="color:#616e7c;font-size:13px">If you did not expect this, ignore this email.</p>`);
  return { subject, text, html };
}

const settingNames: Record<string, string> = {
  default_name: "Your name on new invoices",
  default_address: "Your address on new invoices",
  notification_email: "Payment notices go to",
  underpayment_tolerance: "Underpayment tolerance (USDC)",
};

/**
 * Sent to the account's own email whenever its settings change: a stolen session or key cannot
 * change where notices go, or what counts as paid, without the merchant hearing of it.
 */
export function settingsChangedEmail(data: {
  changes: Record<string, { from: string | null; to: string | null }>;
  /** The new notification email waiting for its link, if one is. */
  pending: string | null;
  accountEmail: string;
  by: string;
  changedAt: Date;
}) {
  const subject = "Your Remit account's settings were changed";
  const when = `${data.changedAt.toISOString().replace("T", " ").slice(0, 19)} UTC`;
  const shown = (field: string, value: string | null) =>
    value ??
    (field === "notification_email" ? `${data.accountEmail} (the account email)` : "(none)");
  const lines = Object.entries(data.changes).map(
    ([field, change]) =>
      `${settingNames[field] ?? field}: ${shown(field, change.from)} → ${shown(field, change.to)}`,
  );
  const pendingNote = data.pending
    ? `Payment notices go to ${data.pending} only once the link we sent there is followed; until then they keep going where they went.`
    : "";
  const advice =
    "If this was not you: sign in to your dashboard and change them back, revoke any key you do not know, and read your audit trail (GET /api/audit).";
  const text = [
    `Your Remit account's settings were changed at ${when}, with ${data.by}:`,
    "",
    ...lines,
    "",
    ...(pendingNote ? [pendingNote, ""] : []),
    advice,
  ].join("\n");
  const html =
    page(`<p>Your Remit account's settings were changed at ${escapeHtml(when)}, with ${escapeHtml(data.by)}:</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
${pendingNote ? `<p>${escapeHtml(pendingNote)}</p>` : ""}
<p><strong>If this was not you</strong>: sign in to your dashboard and change them back, revoke any key you do not know, and read your audit trail (<code>GET /api/audit</code>).</p>`);
  return { subject, text, html };
}

/**
 * Sent to the merchant when one of its webhook endpoints is disabled for failing every attempt
 * N times in a row: events stop going there until it is enabled again, so the merchant must hear
 * of it (as Stripe tells its users), not find out from missing webhooks.
 */
export function webhookEndpointDisabledEmail(data: { url: string; failures: number }) {
  const subject = "A webhook endpoint of your Remit account was disabled";
  const text = [
    `Your webhook endpoint ${data.url} failed ${data.failures} delivery attempts in a row (no answer in time, or no 2xx), so Remit disabled it.`,
    'Events are no longer sent to it. Once it answers again, enable it (PATCH /api/webhook-endpoints/{id} with {"enabled": true}, or the dashboard\'s Webhooks page); missed events are in GET /api/events.',
  ].join("\n");
  const html =
    page(`<p>Your webhook endpoint <code style="font-size:14px">${escapeHtml(data.url)}</code> failed ${data.failures} delivery attempts in a row (no answer in time, or no 2xx), so Remit disabled it.</p>
<p>Events are no longer sent to it. Once it answers again, enable it (<code>PATCH /api/webhook-endpoints/{id}</code> with <code>{"enabled": true}</code>, or the dashboard's Webhooks page); missed events are in <code>GET /api/events</code>.</p>`);
  return { subject, text, html };
}

/** A one-time invitation to a merchant's team (docs/members.md): nothing happens until it is followed. */
export function memberInvitationEmail(data: {
  inviteUrl: string;
  team: string;
  role: string;
  hours: number;
}) {
  const subject = `You are invited to the Remit team of ${data.team}`;
  const text = [
    `You are invited to join the Remit team of ${data.team} as ${data.role}.`,
    "",
    `Open this link within ${data.hours} hours and press the button to join and sign in to its dashboard:`,
    data.inviteUrl,
    "",
    "The link works once. If you do not know this team, ignore this email: nothing happens until the button is pressed.",
  ].join("\n");
  const html =
    page(`<p>You are invited to join the Remit team of <strong>${escapeHtml(data.team)}</strong> as <strong>${escapeHtml(data.role)}</strong>.</p>
<p><a href="${escapeHtml(data.inviteUrl)}" style="display:inline-block;background:#1652f0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Join the team</a></p>
<p>The link works once, for ${data.hours} hours, and asks you to press a button before anything happens.</p>
<p style="color:#616e7c;font-size:13px">If you do not know this team, ignore this email.</p>`);
  return { subject, text, html };
}

/**
 * Sent to every owner on a refund, a payout wallet change or a team change: money moves and
 * the team changes at an owner's word, and an owner hears of each.
 */
export function ownerNoticeEmail(data: { what: string; by: string; at: Date }) {
  const subject = `Remit: ${data.what}`;
  const when = `${data.at.toISOString().replace("T", " ").slice(0, 19)} UTC`;
  const text = [
    `${data.what}, at ${when}, by ${data.by}.`,
    "",
    "If this was not expected: remove the member or revoke the key (DELETE /api/members/{id}, DELETE /api/keys/{id}) and read your audit trail (GET /api/audit).",
  ].join("\n");
  const html =
    page(`<p>${escapeHtml(data.what)}, at ${escapeHtml(when)}, by ${escapeHtml(data.by)}.</p>
<p><strong>If this was not expected</strong>: remove the member or revoke the key (<code>DELETE /api/members/{id}</code>, <code>DELETE /api/keys/{id}</code>) and read your audit trail (<code>GET /api/audit</code>).</p>`);
  return { subject, text, html };
}
