/**
 * `w.js`: for each `<script data-slug>` that loads it, a "Pay with USDC" button that opens the
 * checkout in a modal iframe. When the checkout reports a finished payment (a `postMessage`
 * of `{ type: "remit:payment", slug, status, tx_hash, amount_usdc, confirmed_at }` to this
 * window), the script dispatches a `remit:payment` CustomEvent (bubbling, with that object as
 * `detail`) on its own script element, so the host page can listen on `document`. No
 * dependencies; all styles inline, so the host page's CSS cannot break it.
 */
export const widgetJs = `(function () {
  "use strict";
  var scripts = document.querySelectorAll("script[data-slug]");
  for (var i = 0; i < scripts.length; i++) mount(scripts[i]);

  function mount(script) {
    if (script.getAttribute("data-remit-mounted") || !/\\/w\\.js(\\?|$)/.test(script.src)) return;
    script.setAttribute("data-remit-mounted", "1");
    var origin = new URL(script.src).origin;
    var slug = script.getAttribute("data-slug");
    // A desktop (wide, a mouse) has no wallet app to open: the checkout leaves out the phone's
    // "Open in your wallet app" button, and the frame is tall enough to show it all.
    var desktop = !!(window.matchMedia && window.matchMedia("(min-width: 481px) and (hover: hover) and (pointer: fine)").matches);
    var checkout = origin + "/pay/" + encodeURIComponent(slug) + "?embed=1" + (desktop ? "&device=desktop" : "");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = script.getAttribute("data-label") || "Pay with USDC";
    button.setAttribute("data-remit-button", slug);
    button.style.cssText = "font:600 16px system-ui,sans-serif;background:#1652f0;color:#fff;border:0;border-radius:8px;padding:12px 20px;cursor:pointer";
    script.parentNode.insertBefore(button, script.nextSibling);

    var overlay = null;
    function close() { if (overlay) { overlay.remove(); overlay = null; button.focus(); } }
    button.addEventListener("click", function () {
      if (overlay) return;
      overlay = document.createElement("div");
      overlay.setAttribute("role", "dialog");
      overlay.setAttribute("aria-modal", "true");
      overlay.setAttribute("aria-label", "Pay with USDC");
      overlay.style.cssText = "position:fixed;inset:0;background:rgba(15,23,42,.55);display:flex;align-items:center;justify-content:center;z-index:2147483647";
      var frame = document.createElement("iframe");
      frame.src = checkout;
      frame.title = "Pay with USDC";
      frame.setAttribute("allow", "clipboard-write");
      frame.style.cssText = "width:400px;max-width:96vw;height:" + (desktop ? "660px" : "600px") + ";max-height:92vh;border:0;border-radius:12px;background:#fff";
      var shut = document.createElement("button");
      shut.type = "button";
      shut.textContent = "\\u00d7";
      shut.setAttribute("aria-label", "Close");
      shut.style.cssText = "position:absolute;top:12px;right:16px;font:28px system-ui;color:#fff;background:none;border:0;cursor:pointer";
      shut.addEventListener("click", close);
      overlay.addEventListener("click", function (event) { if (event.target === overlay) close(); });
      document.addEventListener("keydown", function onKey(event) { if (event.key === "Escape") { close(); document.removeEventListener("keydown", onKey); } });
      overlay.appendChild(frame);
      overlay.appendChild(shut);
      document.body.appendChild(overlay);
    });

    window.addEventListener("message", function (event) {
      var data = event.data;
      if (event.origin !== origin || !data || data.type !== "remit:payment" || data.slug !== slug) return;
      script.dispatchEvent(new CustomEvent("remit:payment", { detail: data, bubbles: true }));
    });
  }
})();
`;
