/**
 * The hosted pages' stylesheet and script, served from /assets so a strict
 * Content-Security-Policy (no inline script or style) holds. Plain, dependency-free code.
 */
export const payCss = `
:root{--ink:#1f2933;--muted:#616e7c;--rule:#d9e2ec;--accent:#1652f0;--ok:#0e7a3e;--warn:#b44d12;--bg:#f5f7fa}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:640px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border:1px solid var(--rule);border-radius:12px;padding:20px;margin-bottom:16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:0 0 12px}.muted{color:var(--muted)}.small{font-size:14px}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-size:13px;font-weight:600;background:#e4ecff;color:var(--accent);text-transform:capitalize}
[data-state=paid] .badge,[data-state=confirmed] .badge{background:#dcf5e7;color:var(--ok)}
[data-state=partial] .badge,[data-state=overdue] .badge,[data-state=excess] .badge{background:#fdecdc;color:var(--warn)}
table{width:100%;border-collapse:collapse;font-size:15px}th,td{padding:8px 4px;text-align:left;border-bottom:1px solid var(--rule)}
th{font-size:13px;color:var(--muted);font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.total td{font-weight:700;border-bottom:0}
[data-state=void] .badge{background:#eceff3;color:var(--muted)}
.field input[type=text]{width:100%;font:15px/1.4 ui-monospace,Menlo,Consolas,monospace;border:1px solid var(--rule);border-radius:8px;padding:10px}
.field.check{display:flex;gap:8px;align-items:flex-start}.field.check label{display:inline;font-size:14px;color:var(--ink);margin:0}
.amount{font-size:28px;font-weight:700;font-variant-numeric:tabular-nums}
.field{margin:12px 0}.field label{display:block;font-size:13px;color:var(--muted);margin-bottom:4px}
.copyrow{display:flex;gap:8px;align-items:stretch}
.copyrow code{flex:1;min-width:0;overflow-wrap:anywhere;font:14px/1.4 ui-monospace,Menlo,Consolas,monospace;background:var(--bg);border:1px solid var(--rule);border-radius:8px;padding:10px}
button{font:inherit;font-size:14px;border:1px solid var(--accent);color:var(--accent);background:#fff;border-radius:8px;padding:8px 14px;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #9fb8ff;outline-offset:2px}
.qr{display:flex;justify-content:center;margin:16px 0}.qr svg{width:200px;height:200px}
.warning{background:#fff6ec;border:1px solid #f6d3b0;color:#7a3a0e;border-radius:8px;padding:10px 12px;font-size:14px}
.done{display:none;border-radius:8px;padding:14px;background:#dcf5e7;color:#0b5c2f}
[data-state=paid] .done,[data-state=confirmed] .done,[data-state=excess] .done{display:block}
[data-state=paid] .paywith,[data-state=confirmed] .paywith,[data-state=excess] .paywith{display:none}
.partialnote{display:none}[data-state=partial] .partialnote{display:block}
.excessnote{display:none;margin:8px 0 0}[data-state=excess] .excessnote{display:block}
footer{text-align:center;font-size:13px;color:var(--muted);padding:8px 0 24px}
.wallet{margin:0 0 12px}.walletbuttons{display:flex;flex-direction:column;gap:8px}
button.primary{display:flex;align-items:center;justify-content:center;gap:8px;width:100%;background:var(--accent);color:#fff;font-size:16px;font-weight:600;padding:12px 16px}
button.primary img{width:22px;height:22px}button:disabled{opacity:.6;cursor:progress}
.walletplain{display:flex;gap:8px;align-items:center;font-size:14px;color:var(--muted);margin-top:8px}
.walletstatus{font-size:14px;margin:8px 0 0;overflow-wrap:anywhere}.walletstatus:empty{display:none}
.walletstatus[data-tone=error]{background:#fff6ec;border:1px solid #f6d3b0;color:#7a3a0e;border-radius:8px;padding:8px 10px}
.walletstatus[data-tone=ok]{background:#e4ecff;border-radius:8px;padding:8px 10px}
.orline{display:none;text-align:center;margin:12px 0 0}.has-wallet .orline{display:block}
a.deeplink{display:none}
@media (max-width:480px){.paywith:not(.has-wallet) a.deeplink{display:block;text-align:center;background:var(--accent);color:#fff;border-radius:8px;padding:12px;text-decoration:none;font-weight:600;margin:4px 0 8px}}
a{color:var(--accent)}.prewrap{white-space:pre-line}
td code{overflow-wrap:anywhere;word-break:break-all;font-size:13px}
code.txhash{overflow-wrap:anywhere;word-break:break-all}
.paidcheck summary{cursor:pointer;font-weight:600}.paidcheck[open] summary{margin-bottom:8px}
.paidcheckform label{display:block;font-size:13px;color:var(--muted);margin-bottom:4px}
.paidcheckform input{flex:1;min-width:0;font:14px/1.4 ui-monospace,Menlo,Consolas,monospace;border:1px solid var(--rule);border-radius:8px;padding:10px}
.paidverdict{margin-top:12px;border-radius:8px;padding:10px 12px;font-size:14px;overflow-wrap:anywhere;background:#e4ecff}.paidverdict p{margin:4px 0 0}
.paidverdict[data-tone=error]{background:#fff6ec;border:1px solid #f6d3b0;color:#7a3a0e}.paidverdict[data-tone=ok]{background:#dcf5e7;color:#0b5c2f}
@media (max-width:480px){main{padding:12px 10px}.card{padding:16px}.amount{font-size:24px}}
@media (max-width:480px) and (max-height:700px){
main{padding:8px}.card{padding:12px;margin-bottom:8px}.card p{margin:4px 0}
h1{font-size:18px;margin:0}.amount{font-size:20px}.field{margin:6px 0}.copyrow code{padding:6px 8px}
button{padding:6px 10px}h2{margin:0 0 4px}
.paywith{display:grid;grid-template-columns:116px 1fr;column-gap:12px;align-items:center}
.paywith>h2,.paywith>.field,.paywith>p.small,.paywith>.wallet,.paywith>.orline{grid-column:1/-1}
.paywith>a.deeplink{grid-column:1/-1;order:1}
.qr{margin:6px 0}.qr svg{width:116px;height:116px}.warning{font-size:13px;padding:8px}
footer{padding:0 0 8px}
}
`;

export const payJs = `(function () {
  "use strict";
  var root = document.getElementById("payment");
  if (!root) return;
  var statusUrl = root.getAttribute("data-status-url");
  var pollMs = Number(root.getAttribute("data-poll-ms")) || 5000;
  var total = BigInt(root.getAttribute("data-total-units") || "0");
  var redirect = root.getAttribute("data-redirect");
  var slug = root.getAttribute("data-slug");
  var finished = { paid: true, confirmed: true, excess: true };
  var announced = false;
  var timer = null;
  // After the wallet script submitted a payment: poll every second for a while (3 minutes).
  var fastUntil = 0;
  function schedule(ms) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }
  root.addEventListener("remit:submitted", function () {
    fastUntil = Date.now() + 180000;
    schedule(0);
  });

  function units(decimal) {
    var parts = String(decimal).split(".");
    return BigInt(parts[0]) * 1000000n + BigInt(((parts[1] || "") + "000000").slice(0, 6));
  }
  function usdc(value) {
    var whole = value / 1000000n, fraction = (value % 1000000n).toString().padStart(6, "0").replace(/0+$/, "");
    if (fraction.length < 2) fraction = (fraction + "00").slice(0, 2);
    return whole.toString().replace(/\\B(?=(\\d{3})+(?!\\d))/g, ",") + "." + fraction;
  }
  function set(name, text) {
    var nodes = root.querySelectorAll('[data-field="' + name + '"]');
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = text;
  }
  // Priced in a currency: the status speaks USDC, the page its currency; the server re-renders
  // it when a payment arrives, and before its quote lapses, so it asks anew.
  var quotedReceived = root.getAttribute("data-quoted-received");
  var renewMs = Number(root.getAttribute("data-quote-renew-ms"));
  if (renewMs > 0) setTimeout(function () { window.location.reload(); }, renewMs);
  function show(body) {
    if (quotedReceived !== null) {
      var now = body.amount_usdc ? units(body.amount_usdc).toString() : "0";
      if (body.status !== root.getAttribute("data-state") || now !== quotedReceived) return window.location.reload();
      // The page as reloaded shows it settled: told as a USDC page's is (the widget, the redirect).
      if (finished[body.status] && !announced) announce(body);
      return;
    }
    root.setAttribute("data-state", body.status);
    set("status", body.status);
    if (body.amount_usdc) {
      var received = units(body.amount_usdc);
      set("received", usdc(received));
      set("due", usdc(total > received ? total - received : 0n));
      if (received > total) set("excess", usdc(received - total));
      // What is left to pay is what the copy field should hold.
      var amountNode = document.getElementById("pay-amount");
      if (amountNode && total > received) {
        var plain = usdc(total - received).replace(/,/g, "");
        amountNode.textContent = plain;
        var copy = amountNode.parentNode.querySelector("button[data-copy]");
        if (copy) copy.setAttribute("data-copy", plain);
        var link = document.querySelector("a[data-pay-uri]");
        if (link) link.href = link.href.replace(/uint256=\\d+/, "uint256=" + (total - received).toString());
      }
    }
    if (body.tx_hash) set("tx", body.tx_hash);
    if (finished[body.status] && !announced) announce(body);
  }
  function announce(body) {
    announced = true;
    var message = { type: "remit:payment", slug: slug, status: body.status, tx_hash: body.tx_hash, amount_usdc: body.amount_usdc, confirmed_at: body.confirmed_at };
    if (window.parent !== window) window.parent.postMessage(message, "*");
    if (redirect) setTimeout(function () {
      try { window.top.location.href = redirect; } catch (e) { window.location.href = redirect; }
    }, 2500);
  }
  function poll() {
    fetch(statusUrl, { headers: { accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) { if (body) show(body); })
      .catch(function () {})
      .then(function () { if (!announced) schedule(Date.now() < fastUntil ? 1000 : pollMs); });
  }
  schedule(pollMs);

  var buttons = document.querySelectorAll("button[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener("click", function (event) {
      var button = event.currentTarget, text = button.getAttribute("data-copy"), label = button.textContent;
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = label; }, 1500); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, done);
      else done();
    });
  }
})();
`;

/**
 * The hosted pages' icon (`/favicon.svg`, and `/favicon.ico` for browsers that ask for that
 * name anyway): a coin on Remit's blue, no text, so it needs no font.
 */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1652f0"/><circle cx="16" cy="16" r="9" fill="none" stroke="#fff" stroke-width="3"/><path d="M16 10v12" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>
`;
