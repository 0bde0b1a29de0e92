import { escapeHtml } from "../../internal/escapeHtml.ts";

/** One message the local capture holds, as `GET /dev/outbox` lists it. */
export type CapturedEmail = {
  id: string;
  received_at: string;
  deliveries: number;
  to: string[];
  from: string;
  subject: string;
  text: string | null;
  html: string | null;
  attachments: {
    filename: string;
    type: string | null;
    size: number;
    sha256: string;
    content: string;
  }[];
};

/**
 * `/dev/outbox` for a person with a browser: the list (time, to, subject), then each message —
 * its HTML body in a sandboxed iframe served by its own route under a CSP of its own (no
 * script, no request anywhere), its text, and its attachments to download. The page itself
 * runs no script; its only style is the nonce'd block below.
 */
export function outboxPage(messages: CapturedEmail[], styleNonce: string): string {
  const row = (m: CapturedEmail) =>
    `<tr><td><time datetime="${escapeHtml(m.received_at)}">${escapeHtml(shortTime(m.received_at))}</time></td><td>${escapeHtml(m.to.join(", "))}</td><td><a href="#m-${escapeHtml(m.id)}">${escapeHtml(m.subject)}</a></td></tr>`;
  const message = (m: CapturedEmail) => {
    const base = `/dev/outbox/${encodeURIComponent(m.id)}`;
    const attachments = m.attachments.map(
      (a, index) =>
        `<li><a href="${base}/attachments/${index}" download="${escapeHtml(a.filename)}">${escapeHtml(a.filename)}</a> <span class="muted">${escapeHtml(a.type ?? "")} · ${a.size} bytes</span></li>`,
    );
    return `<article id="m-${escapeHtml(m.id)}" class="message">
<h2>${escapeHtml(m.subject)}</h2>
<dl><dt>To</dt><dd>${escapeHtml(m.to.join(", "))}</dd><dt>From</dt><dd>${escapeHtml(m.from)}</dd><dt>Received</dt><dd>${escapeHtml(m.received_at)}${m.deliveries > 1 ? ` (sent ${m.deliveries} times)` : ""}</dd><dt>JSON</dt><dd><a href="${base}">${escapeHtml(m.id)}</a></dd></dl>
${m.html ? `<h3>HTML</h3><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" src="${base}/html" title="${escapeHtml(`HTML body of ${m.subject}`)}"></iframe>` : ""}
${m.text !== null ? `<h3>Text</h3><pre>${escapeHtml(m.text)}</pre>` : ""}
${attachments.length ? `<h3>Attachments</h3><ul>${attachments.join("")}</ul>` : ""}
</article>`;
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox (${messages.length}) · Remit development</title>
<style nonce="${escapeHtml(styleNonce)}">
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1f2933;background:#f5f7fa}
main{max-width:960px;margin:0 auto;padding:16px}h1{font-size:22px;margin:0 0 4px}
table{width:100%;border-collapse:collapse;background:#fff}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #d9e2ec;vertical-align:top;overflow-wrap:anywhere}
th{font-size:13px;color:#616e7c}td:first-child{white-space:nowrap}
.message{background:#fff;border:1px solid #d9e2ec;border-radius:10px;padding:16px;margin:16px 0}
.message h2{font-size:17px;margin:0 0 8px;overflow-wrap:anywhere}h3{font-size:14px;margin:14px 0 6px;color:#616e7c}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:0;font-size:14px}dt{color:#616e7c}dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:420px;border:1px solid #d9e2ec;border-radius:6px;background:#fff}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f7fa;border-radius:6px;padding:10px;font-size:13px;margin:0}
.muted{color:#616e7c;font-size:13px}
</style></head>
<body><main>
<h1>Outbox</h1>
<p class="muted">Every email Remit sent on this development set-up (nothing leaves the machine). The same as JSON: <code>curl -H 'Accept: application/json' …/dev/outbox</code>.</p>
${
  messages.length
    ? `<table><thead><tr><th>Time (UTC)</th><th>To</th><th>Subject</th></tr></thead><tbody>${messages.map(row).join("")}</tbody></table>
${messages.map(message).join("\n")}`
    : `<p>No email yet.</p>`
}
</main></body></html>`;
}

/** "2026-05-01 14:03:09": the stored ISO time, shorter. */
const shortTime = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");

/** The page's CSP: its own nonce'd style, frames from itself, nothing else. */
export const outboxPageCsp = (styleNonce: string) =>
  [
    "default-src 'none'",
    `style-src 'nonce-${styleNonce}'`,
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

/**
 * A message's HTML body, alone: sandboxed by its CSP too (no script, no same origin, even if
 * opened outside the iframe), inline styles and data: images only, so viewing an email fetches
 * nothing; links open in a new tab.
 */
export const messageHtmlCsp = [
  "sandbox allow-popups allow-popups-to-escape-sandbox",
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join("; ");

/** The body with a `<base target>` first: a link clicked in the frame opens a tab. */
export const messageHtmlDocument = (html: string) => `<base target="_blank">${html}`;
