/**
 * The dashboard's stylesheet and script, served from /assets (no inline script or style: the
 * CSP allows only 'self'). Every page works without the script; it adds live invoice totals
 * (with tax: subtotal, tax and total, priced as domain/tax.ts prices them; in the chosen
 * currency, each line to the cent as priceInvoice prices it),
 * adding and removing line items without a round trip, and copy buttons.
 */
export const DASHBOARD_CSS = "/assets/dashboard.css";
export const DASHBOARD_JS = "/assets/dashboard.js";

export const dashboardCss = `
:root{--ink:#1f2933;--muted:#52606d;--rule:#cbd2d9;--accent:#1652f0;--ok:#0b6b36;--warn:#9c3f0c;--bad:#a61b1b;--bg:#f5f7fa}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #5b84ff;outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:8px 12px;z-index:10}
.skip:focus{left:8px;top:8px}
header.top{background:#fff;border-bottom:1px solid var(--rule)}
.topbar{max-width:1100px;margin:0 auto;padding:10px 16px;display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px}
.brand{font-weight:700;text-decoration:none;color:var(--ink);margin-right:8px}
nav.main ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px}
nav.main a{display:inline-block;padding:6px 10px;border-radius:6px;text-decoration:none;color:var(--ink)}
nav.main a[aria-current=page]{background:#e4ecff;color:var(--accent);font-weight:600}
.who{margin-left:auto;display:flex;align-items:center;gap:8px;font-size:14px;color:var(--muted);overflow-wrap:anywhere}
@media (min-width:641px){
.topbar{flex-wrap:nowrap;align-items:flex-start}.brand{padding:6px 0}
nav.main{flex:1 1 0;min-width:0}
.who{flex:none;min-height:36px}
}
.who span{max-width:14em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.who form.inline{display:flex;margin:0}.who button{padding:5px 12px;line-height:1.5}
main{max-width:1100px;margin:0 auto;padding:20px 16px 40px}
h1{font-size:24px;margin:0 0 16px}h2{font-size:18px;margin:0 0 12px}
.card{background:#fff;border:1px solid var(--rule);border-radius:10px;padding:16px 18px;margin-bottom:16px}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin-bottom:16px}
.stat{background:#fff;border:1px solid var(--rule);border-radius:10px;padding:14px 16px}
.stat .label{font-size:14px;color:var(--muted)}.stat .value{font-size:24px;font-weight:700;font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}.small{font-size:14px}
.tablewrap{overflow-x:auto}
table{width:100%;border-collapse:collapse;font-size:15px}
caption{text-align:left;font-weight:600;padding:0 0 8px;overflow-wrap:anywhere}
th,td{padding:8px 6px;text-align:left;border-bottom:1px solid var(--rule);vertical-align:top}
th{font-size:13px;color:var(--muted);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,.mono{font:14px/1.4 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere;word-break:break-all}
.badge{display:inline-block;padding:1px 9px;border-radius:999px;font-size:13px;font-weight:600;background:#e4ecff;color:#0f3fbf;text-transform:capitalize;white-space:nowrap}
.badge[data-status=paid],.badge[data-status=confirmed],.badge[data-status=delivered],.badge[data-status=sent-email]{background:#dcf5e7;color:var(--ok)}
.badge[data-status=overdue],.badge[data-status=partial],.badge[data-status=excess],.badge[data-status=failed],.badge[data-status=void]{background:#fdecdc;color:var(--warn)}
form.inline{display:inline}
label{display:block;font-size:14px;font-weight:600;margin-bottom:4px}
.field{margin:0 0 12px}.hint{font-size:13px;color:var(--muted);margin:2px 0 0}
input[type=text],input[type=email],input[type=date],input[type=search],input[type=number],input[type=url],select,textarea{font:inherit;width:100%;padding:8px 10px;border:1px solid #7b8794;border-radius:6px;background:#fff;color:var(--ink)}
textarea{min-height:70px}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:0 16px}
button,.button{font:inherit;font-size:15px;border:1px solid var(--accent);color:var(--accent);background:#fff;border-radius:6px;padding:7px 14px;cursor:pointer;text-decoration:none;display:inline-block}
button.primary,.button.primary{background:var(--accent);color:#fff}
button.danger{border-color:var(--bad);color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.filters{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:flex-end}.filters .field{margin:0;min-width:160px;flex:1}
.error{color:var(--bad);font-size:14px;margin:4px 0 0}
[aria-invalid=true]{border-color:var(--bad)!important}
.alert{border-radius:8px;padding:10px 14px;margin:0 0 16px;overflow-wrap:anywhere}
.alert.ok{background:#dcf5e7;color:#0b4d28}.alert.bad{background:#fde8e8;color:#7a1212}
.lines td{padding:6px 4px}.lines input{min-width:0}
.lines .desc{width:27%}.lines .qty{width:9%}.lines .price{width:14%}.lines .rate{width:9%}.lines .cat{width:22%}
.lines select{min-width:0;padding:8px 4px}
.totals{font-size:18px;font-weight:700;text-align:right;margin:8px 0}.totals p{margin:2px 0}.totals .sub{font-size:15px;font-weight:400}
.timeline{list-style:none;margin:0;padding:0}
.timeline li{border-left:3px solid var(--rule);padding:4px 0 12px 14px;position:relative;overflow-wrap:anywhere}
.timeline .hash{white-space:normal}.timeline .hash code,.timeline .hash a{word-break:break-all}
.timeline li li{border:0;padding:2px 0}
.timeline ul{margin:4px 0 0;padding-left:18px}.timeline ul.attempts{list-style:disc}
.timeline li li time{display:inline}
.timeline time{font-size:13px;color:var(--muted);display:block}
.copyrow{display:flex;gap:8px;align-items:flex-start}
.copyrow code{flex:1;min-width:0;background:var(--bg);border:1px solid var(--rule);border-radius:6px;padding:8px;display:block;white-space:pre-wrap}
.pager{display:flex;gap:12px;margin-top:12px}
.signin{max-width:440px;margin:40px auto}
footer.foot{text-align:center;font-size:13px;color:var(--muted);padding:8px 0 24px}
@media (max-width:640px){
main{padding:14px 10px 32px}.grid2{grid-template-columns:1fr}
.who{margin-left:0;width:100%}
table.responsive thead{position:absolute;left:-9999px}
table.responsive tr{display:block;border-bottom:1px solid var(--rule);padding:6px 0}
table.responsive td{display:flex;justify-content:space-between;gap:12px;border:0;padding:3px 2px;text-align:right}
table.responsive td::before{content:attr(data-label);font-size:13px;color:var(--muted);text-align:left;font-weight:600}
table.responsive td.num{white-space:normal}
table.responsive tfoot tr{display:flex;justify-content:space-between;align-items:baseline}table.responsive tfoot th{border:0;padding:3px 2px}
.lines thead{position:absolute;left:-9999px}.lines tr{display:grid;grid-template-columns:1fr 1fr;gap:6px;border-bottom:1px solid var(--rule);padding:8px 0}
.lines td{border:0;display:block;width:auto!important}.lines td.desc{grid-column:1/-1}
.lines tr{grid-auto-flow:dense}.lines td.cat{grid-column:1/-1}
.lines label.sr-only{position:static;width:auto;height:auto;overflow:visible;clip:auto;white-space:normal;font-size:13px;color:var(--muted)}
}
.hash{white-space:nowrap}.hash code,.hash a{word-break:normal;overflow-wrap:normal}
button.copy{font-size:13px;padding:0 8px;margin-left:6px;vertical-align:baseline}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0 0 12px}dl.facts dt{font-weight:600;color:var(--muted)}dl.facts dd{margin:0;min-width:0}
dl.facts dd .hash{white-space:normal}dl.facts dd code{word-break:break-all}
.card.wallet .hash{white-space:normal}.card.wallet code,.card li>code{word-break:break-all}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.badge[data-status=enabled]{background:#dcf5e7;color:var(--ok)}.badge[data-status=disabled]{background:#e4e7eb;color:#3e4c59}
fieldset.checks{border:0;padding:0;margin:0 0 12px;min-width:0}fieldset.checks legend{font-size:14px;font-weight:600;padding:0;margin-bottom:2px}
.checkgrid{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:2px 16px;margin-top:6px}
label.check{font-weight:400;font-size:15px;margin:0;padding:3px 0}
pre.payload{margin:0;background:var(--bg);border:1px solid var(--rule);border-radius:6px;padding:10px;white-space:pre-wrap}
pre.payload code{word-break:break-all}
code.name{word-break:normal;overflow-wrap:normal;white-space:nowrap}
.doclinks{display:inline-flex;flex-wrap:wrap;gap:2px 12px}
.einvoice ul{margin:4px 0 0;padding-left:20px}.einvoice li>code{word-break:break-all}
h2.mono{font:600 17px/1.4 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere;word-break:break-all}
form.rolechange{display:flex;gap:6px;align-items:center;margin:0}form.rolechange select{width:auto;min-width:0;padding:5px 8px}form.rolechange button{padding:5px 10px}
.badge[data-status=expired],.badge[data-status=removed]{background:#e4e7eb;color:#3e4c59;text-transform:none;white-space:normal}
ul.changes{margin:0;padding-left:18px;overflow-wrap:anywhere}
span.person{overflow-wrap:anywhere;min-width:0}
`;

export const dashboardJs = `(function () {
  "use strict";
  // Copy buttons.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy-target]") : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy-target"));
    if (!source) return;
    copy(button, source.textContent);
  });
  // A shortened hash's copy button copies the whole (data-copy); shown only with this script.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (button) copy(button, button.getAttribute("data-copy"));
  });
  function copy(button, text) {
    var label = button.textContent;
    var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = label; }, 1500); };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, done);
  }
  var copies = document.querySelectorAll("button[data-copy]");
  for (var c = 0; c < copies.length; c++) copies[c].hidden = false;

  // A currency select names its form's unit wherever an amount's label shows it ("Amount (EUR)").
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select || select.name !== "currency" || !select.form) return;
    var names = select.form.querySelectorAll("[data-role=unit]");
    for (var n = 0; n < names.length; n++) names[n].textContent = select.value;
  });

  // A credit note's lines only when "These lines" is chosen (all shown without the script).
  var credit = document.getElementById("credit-note-form");
  if (credit) {
    var showLines = function () {
      var chosen = credit.querySelector("input[name=credit]:checked");
      var box = credit.querySelector("[data-credit-lines]");
      if (box) box.hidden = !chosen || chosen.value !== "lines";
    };
    credit.addEventListener("change", showLines);
    showLines();
  }
  // The invoice form's lines, or a credit note's (the same editor, web/dashboard/pages/invoiceFormCards.tsx).
  var form = document.getElementById("invoice-form") || document.getElementById("credit-note-form");
  if (!form) return;
  var body = form.querySelector("tbody.lines-body");
  var template = document.getElementById("line-template");

  // USDC amounts as base units (6 decimals), in BigInt: never floats. A price is read as the
  // server reads typed money (parseTypedUsdc): a whole number or up to 6 decimals, at most
  // 12 whole digits, no separators; "100" is 100.00.
  function units(text, decimals) {
    var m = /^\\s*(\\d{1,15})(?:\\.(\\d+))?\\s*$/.exec(text || "");
    if (!m) return null;
    if (decimals === 6 && m[1].replace(/^0+(?=\\d)/, "").length > 12) return null;
    var fraction = (m[2] || "");
    if (fraction.length > decimals) return null;
    return { value: BigInt(m[1] + (fraction + "0".repeat(decimals)).slice(0, decimals)), scale: decimals };
  }
  function format(value) {
    var whole = value / 1000000n, fraction = (value % 1000000n).toString().padStart(6, "0").replace(/0+$/, "");
    if (fraction.length < 2) fraction = (fraction + "00").slice(0, 2);
    return whole.toString().replace(/\\B(?=(\\d{3})+(?!\\d))/g, ",") + "." + fraction;
  }
  // quantity × unit price, rounded half-up to 6 decimals (as the server does).
  function lineTotal(quantityText, priceText) {
    var q = units(quantityText, 9), p = units(priceText, 6);
    if (!q || !p) return null;
    var product = q.value * p.value, divisor = 1000000000n;
    return (product + divisor / 2n) / divisor;
  }
  // With tax (domain/tax.ts, as the server prices it): each line's net amount to the cent, one
  // group per category and rate, each group's tax on its sum rounded half-up to the cent.
  var CENT = 10000n;
  function netAmount(quantityText, priceText) {
    var q = units(quantityText, 9), p = units(priceText, 6);
    if (!q || !p) return null;
    var divisor = 1000000000n * CENT;
    return ((q.value * p.value + divisor / 2n) / divisor) * CENT;
  }
  // A rate in percent ("19", "7.5"; a typed "%" is dropped): digits and scale, or null.
  function taxRate(text) {
    var t = text.trim().replace(/\\s*%$/, "");
    if (!/^(?:100(?:\\.0{1,3})?|(?:0|[1-9]\\d?)(?:\\.\\d{1,3})?)$/.test(t)) return null;
    var parts = t.split("."), fraction = (parts[1] || "").replace(/0+$/, "");
    return { key: parts[0] + (fraction ? "." + fraction : ""), digits: BigInt(parts[0] + fraction), scale: fraction.length };
  }
  // A line's category and rate, or null when they cannot stand (the server says why).
  function lineTax(rateText, category) {
    var rate = rateText.trim() ? taxRate(rateText) : undefined;
    if (rate === null) return null;
    var cat = category || (rate && rate.digits > 0n ? "S" : "");
    if (!cat) return null;
    if (cat === "S") return rate && rate.digits > 0n ? { cat: cat, rate: rate } : null;
    if (cat === "O") return rate ? null : { cat: cat, rate: null };
    if (rate && rate.digits > 0n) return null;
    return { cat: cat, rate: { key: "0", digits: 0n, scale: 0 } };
  }
  function show(id, text) { var node = document.getElementById(id); if (node) node.textContent = text; }
  // What the amounts are in: the new invoice's currency select, else the form's data-unit (a
  // credit note's: its invoice's), else USDC. Only the new invoice's chosen currency prices to
  // the cent, as priceInvoice(items, currency) does; a credit note's lines are priced as the
  // API prices them.
  var currency = form.querySelector("select[name=currency]");
  function unit() { return currency ? currency.value : form.getAttribute("data-unit") || "USDC"; }
  // In a currency a unit price has at most 2 decimals (the API's too_many_decimals).
  function priceOk(priceText) {
    var p = units(priceText, 6);
    return !!p && (!currency || currency.value === "USDC" || p.value % CENT === 0n);
  }
  function recompute() {
    var rows = body.querySelectorAll("tr"), total = 0n, ok = true, lines = [], taxed = false;
    var u = unit(), cents = !!currency && u !== "USDC";
    // A line just added was rendered in the page's first unit.
    var names = form.querySelectorAll("[data-role=unit]");
    for (var n = 0; n < names.length; n++) names[n].textContent = u;
    for (var i = 0; i < rows.length; i++) {
      var field = function (role) { var f = rows[i].querySelector("[data-role=" + role + "]"); return f ? f.value : ""; };
      var line = { q: field("quantity"), p: field("price"), rate: field("tax-rate"), cat: field("tax-category"), out: rows[i].querySelector("[data-role=line-total]") };
      if (line.rate.trim() || line.cat) taxed = true;
      if (!line.q && !line.p && !line.rate.trim() && !line.cat) { if (line.out) line.out.textContent = ""; continue; }
      lines.push(line);
    }
    var groups = {}, categories = {}, subtotal = 0n;
    for (var j = 0; j < lines.length; j++) {
      var l = lines[j], amount = !priceOk(l.p) ? null : taxed || cents ? netAmount(l.q, l.p) : lineTotal(l.q, l.p);
      if (amount === null) { ok = false; if (l.out) l.out.textContent = "—"; continue; }
      if (l.out) l.out.textContent = format(amount);
      total += amount;
      if (!taxed) continue;
      var tax = lineTax(l.rate, l.cat);
      if (!tax) { ok = false; continue; }
      categories[tax.cat] = true;
      var key = tax.cat + ":" + (tax.rate ? tax.rate.key : "");
      var group = groups[key] || (groups[key] = { rate: tax.rate, taxable: 0n });
      group.taxable += amount;
    }
    if (taxed && categories.O && Object.keys(categories).length > 1) ok = false;
    var taxTotal = 0n;
    if (taxed) {
      subtotal = total;
      for (var k in groups) {
        var g = groups[k];
        if (!g.rate || g.rate.digits === 0n) continue;
        var d = 100n * 10n ** BigInt(g.rate.scale);
        taxTotal += (((g.taxable / CENT) * g.rate.digits + d / 2n) / d) * CENT;
      }
      total = subtotal + taxTotal;
    }
    var marks = form.querySelectorAll("[data-role=taxed]");
    for (var m = 0; m < marks.length; m++) marks[m].hidden = !taxed;
    show("invoice-subtotal", ok && taxed ? format(subtotal) + " " + u : "—");
    show("invoice-tax", ok && taxed ? format(taxTotal) + " " + u : "—");
    show("invoice-total", ok ? format(total) + " " + u : "—");
  }
  function renumber() {
    var rows = body.querySelectorAll("tr");
    for (var i = 0; i < rows.length; i++) {
      var fields = rows[i].querySelectorAll("[data-name]");
      for (var j = 0; j < fields.length; j++) {
        var name = fields[j].getAttribute("data-name").replace("#", String(i));
        if (fields[j].tagName === "LABEL") fields[j].setAttribute("for", name);
        else { fields[j].setAttribute("name", name); fields[j].setAttribute("id", name); }
      }
      var remove = rows[i].querySelector("button[data-role=remove]");
      if (remove) { remove.value = "remove_line:" + i; remove.setAttribute("aria-label", "Remove line " + (i + 1)); }
    }
  }
  form.addEventListener("input", recompute);
  form.addEventListener("change", recompute);
  form.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    if (!button) return;
    if (button.getAttribute("data-role") === "remove") {
      event.preventDefault();
      var row = button.closest("tr");
      if (body.querySelectorAll("tr").length > 1) row.remove();
      else { var inputs = row.querySelectorAll("input, select"); for (var k = 0; k < inputs.length; k++) inputs[k].value = ""; }
      renumber(); recompute();
      var first = body.querySelector("input"); if (first) first.focus();
    } else if (button.getAttribute("data-role") === "add" && template) {
      event.preventDefault();
      if (body.querySelectorAll("tr").length >= 30) return;
      body.appendChild(template.content.cloneNode(true));
      renumber(); recompute();
      var rows = body.querySelectorAll("tr");
      rows[rows.length - 1].querySelector("input").focus();
    }
  });
  renumber();
  recompute();
})();
`;
