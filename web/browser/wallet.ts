/**
 * `/assets/wallet.js`: the "Pay with wallet" button of the payable pages (and so of the iframe
 * and `w.js` checkout), bundled for the browser by web/walletScript.ts. Plain EIP-1193 calls and
 * the EIP-712 JSON, no wallet library, no third-party code: it finds the browser's wallets
 * (EIP-6963, else `window.ethereum`), connects (`eth_requestAccounts`), makes sure the wallet is
 * on Base (`wallet_switchEthereumChain`, adding Base with `wallet_addEthereumChain` when the
 * wallet does not know it), reads the payer's USDC balance (`eth_call` of `balanceOf`) and pays
 * exactly what is due:
 *
 * - gasless (the default when the service relays): the wallet signs an EIP-3009
 *   `TransferWithAuthorization` (`eth_signTypedData_v4`) with a random nonce, valid ten
 *   minutes, and the page posts it to `POST /api/payments/{slug}/authorizations`;
 * - a plain transfer (`eth_sendTransaction` of USDC's `transfer`), when the payer picks it, the
 *   service does not relay, or the wallet cannot sign typed data.
 *
 * The contract calls, the chain and the typed data come from the ABI, the constants and the
 * EIP-712 domain the server uses (abis/usdc.ts, domain/), so the two cannot disagree. Nothing of
 * viem but its types: it would make the script three times as large and its bundling a
 * hundred times as slow (docs/benchmarks.md).
 *
 * Every step and every refusal is said in plain words in the status line; a refusal sends
 * nothing. Once a transaction is out, it tells pay.js (`remit:submitted` on `#payment`), which
 * then polls every second until the payment counts.
 */
import type { Address, Hex } from "viem";
import { transferWithAuthorizationTypes } from "../../abis/usdc.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { USDC_EIP712_DOMAIN } from "../../domain/usdcAuthorization.ts";
import { balanceOfCall, transferCall } from "./usdcCalls.ts";
import { switchToBase } from "./walletChain.ts";
import {
  errorMessage,
  type Outcome,
  type Provider,
  Refusal,
  type Request,
  refusals,
  rejected,
  unsupported,
  type Wallet,
  type WalletInfo,
} from "./walletProtocol.ts";

declare global {
  interface Window {
    ethereum?: Partial<Provider>;
  }
}

const USDC_UNIT = 1_000_000n;

/** How long a signed authorization stays valid, and how long a queued one is followed. */
const AUTHORIZATION_VALID_SECONDS = 600;
const FOLLOW_MS = 120_000;
const FOLLOW_EVERY_MS = 1000;
/** How long EIP-6963 wallets have to announce themselves before `window.ethereum` is used. */
const ANNOUNCE_MS = 250;

/** A decimal USDC amount as the page prints it ("1,250.50") in base units. */
function units(decimal: string): bigint {
  const [whole = "0", fraction = ""] = decimal.replace(/,/g, "").split(".");
  return BigInt(whole) * USDC_UNIT + BigInt(`${fraction}000000`.slice(0, 6));
}
function usdcText(value: bigint): string {
  const whole = value / USDC_UNIT;
  let fraction = (value % USDC_UNIT).toString().padStart(6, "0").replace(/0+$/, "");
  if (fraction.length < 2) fraction = `${fraction}00`.slice(0, 2);
  return `${whole}.${fraction}`;
}

function start(): void {
  const root = document.getElementById("payment");
  const box = document.getElementById("wallet");
  if (!root || !box) return;
  const buttons = box.querySelector<HTMLElement>("[data-wallet-buttons]");
  const status = box.querySelector<HTMLElement>("[data-wallet-status]");
  if (!buttons || !status) return;
  const section = box.closest(".paywith");
  const plainBox = box.querySelector<HTMLElement>("[data-wallet-plain]");
  const plainToggle = plainBox?.querySelector("input") ?? null;
  const slug = root.getAttribute("data-slug") ?? "";
  const deposit = (root.getAttribute("data-deposit-address") ?? "") as Address;
  const gasless = box.getAttribute("data-gasless") === "on";
  const explorer = box.getAttribute("data-explorer-url");
  const wallets: Wallet[] = [];
  let busy = false;

  if (!gasless && plainBox) plainBox.hidden = true;

  function say(text: string, tone?: "error" | "ok", link?: Node): void {
    if (!status) return;
    status.textContent = text;
    if (tone) status.setAttribute("data-tone", tone);
    else status.removeAttribute("data-tone");
    status.setAttribute("data-step", tone === "error" ? "refused" : "progress");
    if (link) {
      status.appendChild(document.createTextNode(" "));
      status.appendChild(link);
    }
  }
  function refuse(text: string): void {
    say(`${text} Nothing was sent.`, "error");
  }
  function due(): bigint {
    const node = document.getElementById("pay-amount");
    return node ? units((node.textContent ?? "").trim()) : 0n;
  }
  function txLink(hash: string): HTMLElement {
    const short = `${hash.slice(0, 10)}…${hash.slice(-8)}`;
    let node: HTMLElement;
    if (explorer) {
      const a = document.createElement("a");
      a.href = `${explorer}/tx/${hash}`;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      node = a;
    } else node = document.createElement("code");
    node.textContent = short;
    node.title = hash;
    node.setAttribute("data-tx", hash);
    return node;
  }

  // ---- discovery: EIP-6963, else the injected window.ethereum -------------------------------
  function add(info: WalletInfo, provider: Provider): void {
    if (wallets.some((wallet) => wallet.provider === provider)) return;
    wallets.push({ info, provider });
    render();
  }
  window.addEventListener("eip6963:announceProvider", (event) => {
    const detail = (event as CustomEvent<{ info?: WalletInfo; provider?: Partial<Provider> }>)
      .detail;
    if (detail?.provider && typeof detail.provider.request === "function")
      add(detail.info || {}, detail.provider as Provider);
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  setTimeout(() => {
    const injected = window.ethereum;
    if (wallets.length === 0 && injected && typeof injected.request === "function")
      add({ name: "your browser wallet" }, injected as Provider);
  }, ANNOUNCE_MS);

  function render(): void {
    if (!buttons || !box) return;
    buttons.textContent = "";
    for (const wallet of wallets) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.setAttribute("data-wallet-pay", wallet.info.rdns || wallet.info.name || "wallet");
      const icon = wallet.info.icon;
      if (typeof icon === "string" && icon.indexOf("data:image/") === 0) {
        const img = document.createElement("img");
        img.src = icon;
        img.alt = "";
        button.appendChild(img);
      }
      const name = wallet.info.name || "your wallet";
      button.appendChild(
        document.createTextNode(wallets.length > 1 ? `Pay with ${name}` : "Pay with wallet"),
      );
      button.addEventListener("click", () => {
        void pay(wallet);
      });
      buttons.appendChild(button);
    }
    box.hidden = false;
    if (section) section.classList.add("has-wallet");
  }
  function setBusy(value: boolean): void {
    busy = value;
    for (const button of buttons?.querySelectorAll("button") ?? []) button.disabled = value;
    if (plainToggle) plainToggle.disabled = value;
  }

  // ---- paying ------------------------------------------------------------------------------
  async function pay(wallet: Wallet): Promise<void> {
    if (busy) return;
    setBusy(true);
    const name = wallet.info.name || "your wallet";
    const provider = wallet.provider;
    const request: Request = (method, params) =>
      provider.request(params === undefined ? { method } : { method, params });
    const amount = due();
    say(`Connecting to ${name}…`);
    try {
      const accounts = await request("eth_requestAccounts").catch((error: unknown) => {
        if (rejected(error)) throw new Refusal(`You declined connecting ${name}.`);
        throw error;
      });
      const account = Array.isArray(accounts) ? (accounts[0] as Address | undefined) : undefined;
      if (!account) throw new Refusal(`No account was shared by ${name}.`);
      await switchToBase(say, request, name);
      say("Checking your USDC balance…");
      const data = balanceOfCall(account);
      const result = await request("eth_call", [{ to: USDC_ADDRESS, data }, "latest"]);
      const balance = BigInt(typeof result === "string" && result !== "0x" ? result : "0x0");
      if (balance < amount)
        throw new Refusal(
          `Not enough USDC on Base: this wallet holds ${usdcText(balance)} USDC and the payment is ${usdcText(amount)} USDC.`,
        );
      const plain = !gasless || plainToggle?.checked;
      const outcome = plain
        ? await transfer(request, name, account, amount)
        : await signed(request, name, account, amount);
      root?.dispatchEvent(new CustomEvent("remit:submitted", { detail: outcome }));
      say("Submitted: transaction", "ok", txLink(outcome.tx_hash));
      status?.appendChild(document.createTextNode(". Waiting for it to be counted…"));
      status?.setAttribute("data-step", "submitted");
    } catch (error) {
      if (error instanceof Refusal) refuse(error.message);
      else if (rejected(error)) refuse(`You declined the request in ${name}.`);
      else refuse(`${name} reported an error: ${errorMessage(error) || String(error)}.`);
      setBusy(false);
    }
  }

  async function transfer(
    request: Request,
    name: string,
    account: Address,
    amount: bigint,
  ): Promise<Outcome> {
    say(`Confirm the transfer of ${usdcText(amount)} USDC in ${name}…`);
    const data = transferCall(deposit, amount);
    try {
      const hash = await request("eth_sendTransaction", [
        { from: account, to: USDC_ADDRESS, data, value: "0x0" },
      ]);
      return { tx_hash: String(hash), method: "transfer" };
    } catch (error) {
      if (rejected(error)) throw new Refusal(`You declined the transfer in ${name}.`);
      if (/insufficient funds/i.test(errorMessage(error)))
        throw new Refusal(
          `${name} has too little ETH on Base to pay the gas.${gasless ? " Pay gaslessly instead (untick the regular transfer)." : ""}`,
        );
      throw error;
    }
  }

  async function signed(
    request: Request,
    name: string,
    account: Address,
    amount: bigint,
  ): Promise<Outcome> {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    const nonce: Hex = `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
    const message = {
      from: account,
      to: deposit,
      value: amount.toString(),
      validAfter: "0",
      validBefore: String(Math.floor(Date.now() / 1000) + AUTHORIZATION_VALID_SECONDS),
      nonce,
    };
    const typed = {
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" },
        ],
        ...transferWithAuthorizationTypes,
      },
      primaryType: "TransferWithAuthorization",
      domain: USDC_EIP712_DOMAIN,
      message,
    };
    say(`Sign the payment of ${usdcText(amount)} USDC in ${name}. It costs you no gas.`);
    let signature: unknown;
    try {
      signature = await request("eth_signTypedData_v4", [account, JSON.stringify(typed)]);
    } catch (error) {
      if (rejected(error)) throw new Refusal(`You declined the signature in ${name}.`);
      // The wallet cannot sign typed data: it can still send a plain transfer.
      if (unsupported(error)) return transfer(request, name, account, amount);
      throw error;
    }
    say("Sending your signed payment…");
    let response: Response;
    try {
      response = await fetch(`/api/payments/${encodeURIComponent(slug)}/authorizations`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          from: message.from,
          to: message.to,
          value: message.value,
          valid_after: message.validAfter,
          valid_before: message.validBefore,
          nonce,
          signature,
        }),
      });
    } catch {
      throw new Refusal(
        "Could not reach the payment service. Check your connection and pay again.",
      );
    }
    return answered(response);
  }

  type Answer = {
    status?: string;
    authorization_id?: string;
    tx_hash?: string;
    error?: { code?: string; message?: string } | string;
  };

  async function answered(response: Response): Promise<Outcome> {
    // A proxy's HTML error page is no JSON: its status is all there is to say.
    const body: Answer = await response.json().catch(() => ({}));
    // Relative, like every request of the page: the API answers on the page's origin (CSP).
    if (response.ok && body.status === "pending")
      return follow(
        `/api/payments/${encodeURIComponent(slug)}/authorizations/${encodeURIComponent(String(body.authorization_id))}`,
      );
    if (response.ok) return outcomeOf(body);
    const error = typeof body.error === "object" && body.error ? body.error : {};
    if (error.code === "relayer_budget_exhausted" || error.code === "gasless_unavailable") {
      if (plainBox && plainToggle) {
        plainBox.hidden = false;
        plainToggle.checked = true;
      }
    }
    throw new Refusal(
      (error.code && refusals[error.code]) ||
        error.message ||
        `The payment service answered ${response.status}.`,
    );
  }
  function outcomeOf(body: Answer): Outcome {
    if (body.tx_hash && (body.status === "submitted" || body.status === "mined"))
      return { tx_hash: body.tx_hash, method: "gasless" };
    if (body.status === "expired") throw new Refusal(refusals.authorization_expired ?? "");
    throw new Refusal(
      `The payment could not be sent: ${typeof body.error === "string" && body.error ? body.error : body.status}.`,
    );
  }
  function follow(url: string): Promise<Outcome> {
    say("Your signed payment is queued; sending it…");
    const until = Date.now() + FOLLOW_MS;
    return new Promise((resolve, reject) => {
      const again = (): void => {
        fetch(url, { headers: { accept: "application/json" }, cache: "no-store" })
          .then((r) => r.json() as Promise<Answer>)
          .then((body) => {
            if (body.status && body.status !== "pending") return resolve(outcomeOf(body));
            if (Date.now() > until)
              return reject(
                new Refusal(
                  "The payment is still queued. This page updates by itself when it arrives.",
                ),
              );
            setTimeout(again, FOLLOW_EVERY_MS);
          })
          .catch((error: unknown) => {
            if (error instanceof Refusal) reject(error);
            else setTimeout(again, FOLLOW_EVERY_MS);
          });
      };
      again();
    });
  }
}

start();
