/**
 * `/assets/wallet.js`: the "Pay with wallet" button of the payable pages (and so of the iframe
 * and `w.js` checkout). Plain EIP-1193 calls and the EIP-712 JSON, no library, no third-party
 * code: it finds the browser's wallets (EIP-6963, else `window.ethereum`), connects
 * (`eth_requestAccounts`), makes sure the wallet is on Base (`wallet_switchEthereumChain`,
 * adding Base with `wallet_addEthereumChain` when the wallet does not know it), reads the
 * payer's USDC balance (`eth_call` of `balanceOf`) and pays exactly what is due:
 *
 * - gasless (the default when the service relays): the wallet signs an EIP-3009
 *   `TransferWithAuthorization` (`eth_signTypedData_v4`) with a random nonce, valid ten
 *   minutes, and the page posts it to `POST /api/payments/{slug}/authorizations`;
 * - a plain transfer (`eth_sendTransaction` of USDC's `transfer`), when the payer picks it, the
 *   service does not relay, or the wallet cannot sign typed data.
 *
 * Every step and every refusal is said in plain words in the status line; a refusal sends
 * nothing. Once a transaction is out, it tells pay.js (`remit:submitted` on `#payment`), which
 * then polls every second until the payment counts.
 */
export const walletJs = String.raw`(function () {
  "use strict";
  var root = document.getElementById("payment");
  var box = document.getElementById("wallet");
  if (!root || !box) return;
  var section = box.closest(".paywith");
  var buttons = box.querySelector("[data-wallet-buttons]");
  var plainBox = box.querySelector("[data-wallet-plain]");
  var plainToggle = plainBox ? plainBox.querySelector("input") : null;
  var status = box.querySelector("[data-wallet-status]");
  var slug = root.getAttribute("data-slug");
  var deposit = root.getAttribute("data-deposit-address");
  var usdc = box.getAttribute("data-usdc");
  var chainHex = box.getAttribute("data-chain-id");
  var gasless = box.getAttribute("data-gasless") === "on";
  var explorer = box.getAttribute("data-explorer-url");
  var wallets = [];
  var busy = false;

  if (!gasless && plainBox) plainBox.hidden = true;

  function say(text, tone, link) {
    status.textContent = text;
    if (tone) status.setAttribute("data-tone", tone); else status.removeAttribute("data-tone");
    status.setAttribute("data-step", tone === "error" ? "refused" : "progress");
    if (link) {
      status.appendChild(document.createTextNode(" "));
      status.appendChild(link);
    }
  }
  function refuse(text) {
    say(text + " Nothing was sent.", "error");
  }
  function units(decimal) {
    var parts = String(decimal).replace(/,/g, "").split(".");
    return BigInt(parts[0]) * 1000000n + BigInt(((parts[1] || "") + "000000").slice(0, 6));
  }
  function usdcText(value) {
    var whole = value / 1000000n, fraction = (value % 1000000n).toString().padStart(6, "0").replace(/0+$/, "");
    if (fraction.length < 2) fraction = (fraction + "00").slice(0, 2);
    return whole.toString() + "." + fraction;
  }
  function due() {
    var node = document.getElementById("pay-amount");
    return node ? units(node.textContent.trim()) : 0n;
  }
  function word(address) {
    return address.toLowerCase().replace(/^0x/, "").padStart(64, "0");
  }
  function hex(value) {
    return "0x" + value.toString(16);
  }
  function txLink(hash) {
    var short = hash.slice(0, 10) + "…" + hash.slice(-8);
    var node;
    if (explorer) {
      node = document.createElement("a");
      node.href = explorer + "/tx/" + hash;
      node.target = "_blank";
      node.rel = "noopener noreferrer";
    } else node = document.createElement("code");
    node.textContent = short;
    node.title = hash;
    node.setAttribute("data-tx", hash);
    return node;
  }
  function rejected(error) {
    return error && (error.code === 4001 || error.code === "ACTION_REJECTED");
  }
  function unsupported(error) {
    return error && (error.code === 4200 || error.code === -32601 || error.code === -32602);
  }

  // ---- discovery: EIP-6963, else the injected window.ethereum -------------------------------
  function add(info, provider) {
    for (var i = 0; i < wallets.length; i++) if (wallets[i].provider === provider) return;
    wallets.push({ info: info, provider: provider });
    render();
  }
  window.addEventListener("eip6963:announceProvider", function (event) {
    var detail = event.detail;
    if (detail && detail.provider && typeof detail.provider.request === "function")
      add(detail.info || {}, detail.provider);
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  setTimeout(function () {
    if (wallets.length === 0 && window.ethereum && typeof window.ethereum.request === "function")
      add({ name: "your browser wallet" }, window.ethereum);
  }, 250);

  function render() {
    buttons.textContent = "";
    wallets.forEach(function (wallet) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.setAttribute("data-wallet-pay", wallet.info.rdns || wallet.info.name || "wallet");
      var icon = wallet.info.icon;
      if (typeof icon === "string" && icon.indexOf("data:image/") === 0) {
        var img = document.createElement("img");
        img.src = icon;
        img.alt = "";
        button.appendChild(img);
      }
      var name = wallet.info.name || "your wallet";
      button.appendChild(document.createTextNode(wallets.length > 1 ? "Pay with " + name : "Pay with wallet"));
      button.addEventListener("click", function () { pay(wallet); });
      buttons.appendChild(button);
    });
    box.hidden = false;
    if (section) section.classList.add("has-wallet");
  }
  function setBusy(value) {
    busy = value;
    var all = buttons.querySelectorAll("button");
    for (var i = 0; i < all.length; i++) all[i].disabled = value;
    if (plainToggle) plainToggle.disabled = value;
  }

  // ---- paying ------------------------------------------------------------------------------
  function pay(wallet) {
    if (busy) return;
    setBusy(true);
    var name = wallet.info.name || "your wallet";
    var provider = wallet.provider;
    var request = function (method, params) {
      return provider.request(params === undefined ? { method: method } : { method: method, params: params });
    };
    var amount = due();
    var account;
    say("Connecting to " + name + "…");
    request("eth_requestAccounts")
      .catch(function (error) {
        if (rejected(error)) throw { remit: "You declined connecting " + name + "." };
        throw error;
      })
      .then(function (accounts) {
        account = accounts && accounts[0];
        if (!account) throw { remit: "No account was shared by " + name + "." };
        return onBase(request, name);
      })
      .then(function () {
        say("Checking your USDC balance…");
        return request("eth_call", [{ to: usdc, data: "0x70a08231" + word(account) }, "latest"]);
      })
      .then(function (result) {
        var balance = BigInt(result && result !== "0x" ? result : "0x0");
        if (balance < amount)
          throw { remit: "Not enough USDC on Base: this wallet holds " + usdcText(balance) + " USDC and the payment is " + usdcText(amount) + " USDC." };
        var plain = !gasless || (plainToggle && plainToggle.checked);
        return plain ? transfer(request, name, account, amount) : signed(request, name, account, amount);
      })
      .then(function (outcome) {
        if (!outcome) return;
        root.dispatchEvent(new CustomEvent("remit:submitted", { detail: outcome }));
        say("Submitted: transaction", "ok", txLink(outcome.tx_hash));
        status.appendChild(document.createTextNode(". Waiting for it to be counted…"));
        status.setAttribute("data-step", "submitted");
      })
      .catch(function (error) {
        if (error && error.remit) refuse(error.remit);
        else if (rejected(error)) refuse("You declined the request in " + name + ".");
        else refuse(name + " reported an error: " + ((error && error.message) || String(error)) + ".");
        setBusy(false);
      });
  }

  function onBase(request, name) {
    return request("eth_chainId").then(function (id) {
      if (parseInt(id, 16) === parseInt(chainHex, 16)) return;
      say("Asking " + name + " to switch to Base…");
      return request("wallet_switchEthereumChain", [{ chainId: chainHex }])
        .catch(function (error) {
          if (error && error.code === 4902) {
            say("Adding Base to " + name + "…");
            return request("wallet_addEthereumChain", [{
              chainId: chainHex,
              chainName: "Base",
              nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
              rpcUrls: ["https://mainnet.base.org"],
              blockExplorerUrls: ["https://basescan.org"],
            }]).then(function () {
              return request("wallet_switchEthereumChain", [{ chainId: chainHex }]);
            });
          }
          throw error;
        })
        .catch(function (error) {
          if (rejected(error))
            throw { remit: "You declined switching to Base. This payment is USDC on Base only: switch " + name + " to Base and try again." };
          throw error;
        })
        .then(function () { return request("eth_chainId"); })
        .then(function (now) {
          if (parseInt(now, 16) !== parseInt(chainHex, 16))
            throw { remit: name + " is on another network (chain " + parseInt(now, 16) + "). Switch it to Base (chain 8453) and try again." };
        });
    });
  }

  function transfer(request, name, account, amount) {
    say("Confirm the transfer of " + usdcText(amount) + " USDC in " + name + "…");
    var data = "0xa9059cbb" + word(deposit) + amount.toString(16).padStart(64, "0");
    return request("eth_sendTransaction", [{ from: account, to: usdc, data: data, value: "0x0" }])
      .then(function (hash) { return { tx_hash: hash, method: "transfer" }; })
      .catch(function (error) {
        if (rejected(error)) throw { remit: "You declined the transfer in " + name + "." };
        if (/insufficient funds/i.test((error && error.message) || ""))
          throw { remit: name + " has too little ETH on Base to pay the gas." + (gasless ? " Pay gaslessly instead (untick the regular transfer)." : "") };
        throw error;
      });
  }

  function signed(request, name, account, amount) {
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    var nonce = "0x" + Array.prototype.map.call(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
    var message = {
      from: account,
      to: deposit,
      value: amount.toString(),
      validAfter: "0",
      validBefore: String(Math.floor(Date.now() / 1000) + 600),
      nonce: nonce,
    };
    var typed = {
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" },
        ],
        TransferWithAuthorization: [
          { name: "from", type: "address" },
          { name: "to", type: "address" },
          { name: "value", type: "uint256" },
          { name: "validAfter", type: "uint256" },
          { name: "validBefore", type: "uint256" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "TransferWithAuthorization",
      domain: { name: "USD Coin", version: "2", chainId: parseInt(chainHex, 16), verifyingContract: usdc },
      message: message,
    };
    say("Sign the payment of " + usdcText(amount) + " USDC in " + name + ". It costs you no gas.");
    return request("eth_signTypedData_v4", [account, JSON.stringify(typed)])
      .then(
        function (signature) {
          say("Sending your signed payment…");
          return fetch("/api/payments/" + encodeURIComponent(slug) + "/authorizations", {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify({
              from: message.from, to: message.to, value: message.value,
              valid_after: message.validAfter, valid_before: message.validBefore,
              nonce: nonce, signature: signature,
            }),
          }).then(answered, function () {
            throw { remit: "Could not reach the payment service. Check your connection and pay again." };
          });
        },
        function (error) {
          if (rejected(error)) throw { remit: "You declined the signature in " + name + "." };
          if (unsupported(error)) {
            // The wallet cannot sign typed data: it can still send a plain transfer.
            return transfer(request, name, account, amount);
          }
          throw error;
        }
      );
  }

  var refusals = {
    authorization_expired: "The signed authorization expired before it reached us. Pay again to sign a new one.",
    wrong_amount: "The amount due changed while you were signing. Reload the page and pay again.",
    payment_in_progress: "A payment for this is already on its way. Wait a moment for it to be counted.",
    nothing_due: "Nothing is due any more: this has been paid.",
    authorization_used: "This signed payment was already used. Pay again to sign a new one.",
    relayer_budget_exhausted: "Gasless payments are paused for today. Tick \"regular transfer\" to send it yourself (your wallet pays a little ETH for gas).",
    gasless_unavailable: "Gasless payments are not available here. Tick \"regular transfer\" to send it yourself (your wallet pays a little ETH for gas).",
    rate_limited: "Too many attempts. Wait a minute and pay again.",
  };

  function answered(response) {
    // A proxy's HTML error page is no JSON: its status is all there is to say.
    return response.json().catch(function () { return {}; }).then(function (body) {
      // Relative, like every request of the page: the API answers on the page's origin (CSP).
      if (response.ok && body.status === "pending")
        return follow("/api/payments/" + encodeURIComponent(slug) + "/authorizations/" + encodeURIComponent(body.authorization_id));
      if (response.ok) return outcomeOf(body);
      var error = body.error || {};
      if (error.code === "relayer_budget_exhausted" || error.code === "gasless_unavailable") {
        if (plainBox && plainToggle) { plainBox.hidden = false; plainToggle.checked = true; }
      }
      throw { remit: refusals[error.code] || error.message || "The payment service answered " + response.status + "." };
    });
  }
  function outcomeOf(body) {
    if (body.tx_hash && (body.status === "submitted" || body.status === "mined"))
      return { tx_hash: body.tx_hash, method: "gasless" };
    if (body.status === "expired") throw { remit: refusals.authorization_expired };
    throw { remit: "The payment could not be sent: " + (body.error || body.status) + "." };
  }
  function follow(url) {
    say("Your signed payment is queued; sending it…");
    var until = Date.now() + 120000;
    return new Promise(function (resolve, reject) {
      (function again() {
        fetch(url, { headers: { accept: "application/json" }, cache: "no-store" })
          .then(function (r) { return r.json(); })
          .then(function (body) {
            if (body.status && body.status !== "pending") return resolve(outcomeOf(body));
            if (Date.now() > until) return reject({ remit: "The payment is still queued. This page updates by itself when it arrives." });
            setTimeout(again, 1000);
          })
          .catch(function (error) { if (error && error.remit) reject(error); else setTimeout(again, 1000); });
      })();
    });
  }
})();
`;
