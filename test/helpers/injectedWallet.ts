import type { Page } from "playwright-core";
import type { Address } from "viem";
import { BASE_CHAIN_ID } from "../../domain/constants.ts";

/** How the test wallet behaves; tests change it between steps. */
export type WalletScenario = {
  /** One of anvil's dev accounts: anvil signs typed data and transactions for it. */
  account: Address;
  /** The chain the wallet starts on. Default: Base (8453). */
  chainId?: number;
  /** The wallet does not know Base yet: switching to it fails with 4902 until it is added. */
  lacksBase?: boolean;
  /** The payer refuses to switch networks (EIP-1193 error 4001). */
  refuseSwitch?: boolean;
  /** The payer rejects the signature request (4001). */
  rejectSignature?: boolean;
  /** The wallet cannot sign typed data (4200, unsupported method). */
  noTypedData?: boolean;
};

/** An EIP-1193 error, as the wallet answers it. */
type RpcAnswer = { result?: unknown; error?: { code: number; message: string } };

/**
 * Injects an EIP-1193 wallet into every frame of `page` (the checkout inside an iframe too),
 * announced by EIP-6963 and as `window.ethereum`. It is a real wallet as far as the page can
 * tell: its requests reach anvil's JSON-RPC, which signs `eth_signTypedData_v4` and
 * `eth_sendTransaction` for its unlocked dev accounts, so signatures and transactions are real.
 * Only the wallet's own decisions (the accounts it shares, its network, the payer's consent)
 * are played here, from `scenario`. Every method asked is recorded in `calls`; `pause(method)`
 * holds the next such request, to look at the page meanwhile.
 */
export async function injectWallet(page: Page, rpcUrl: string, scenario: WalletScenario) {
  const calls: string[] = [];
  const known = new Set<number>([1, ...(scenario.lacksBase ? [] : [BASE_CHAIN_ID])]);
  let chainId = scenario.chainId ?? BASE_CHAIN_ID;
  const paused = new Map<string, { reached: () => void; gate: Promise<void> }>();

  const forward = async (method: string, params: unknown[]): Promise<RpcAnswer> => {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as RpcAnswer;
    return body.error ? { error: { code: body.error.code, message: body.error.message } } : body;
  };
  const refused = (message: string): RpcAnswer => ({ error: { code: 4001, message } });

  await page.exposeFunction(
    "__remitTestWallet",
    async (method: string, paramsJson: string): Promise<RpcAnswer> => {
      const params = JSON.parse(paramsJson) as unknown[];
      calls.push(method);
      const pause = paused.get(method);
      if (pause) {
        paused.delete(method);
        pause.reached();
        await pause.gate;
      }
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return { result: [scenario.account.toLowerCase()] };
        case "eth_chainId":
          return { result: `0x${chainId.toString(16)}` };
        case "wallet_switchEthereumChain": {
          if (scenario.refuseSwitch) return refused("User rejected the request.");
          const target = Number.parseInt((params[0] as { chainId: string }).chainId, 16);
          if (!known.has(target))
            return { error: { code: 4902, message: `Unrecognized chain ID ${target}` } };
          chainId = target;
          return { result: null };
        }
        case "wallet_addEthereumChain":
          known.add(Number.parseInt((params[0] as { chainId: string }).chainId, 16));
          return { result: null };
        case "eth_signTypedData_v4":
          if (scenario.noTypedData)
            return { error: { code: 4200, message: "The method is not supported" } };
          if (scenario.rejectSignature) return refused("User denied message signature.");
          return forward(method, params);
        default:
          return forward(method, params);
      }
    },
  );

  // A string, not a function: a transpiler's helpers (esbuild's __name) do not exist in a page.
  await page.addInitScript(PROVIDER_SCRIPT);

  return {
    calls,
    scenario,
    /** The wallet's current network. */
    chainId: () => chainId,
    /**
     * Holds the next request of `method` until `release()` is called: `reached` resolves when
     * it arrives (the page then shows the step that waits for the wallet).
     */
    pause: (method: string) => {
      let open: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      const reached = new Promise<void>((resolve) =>
        paused.set(method, { reached: resolve, gate }),
      );
      return { reached, release: () => open() };
    },
  };
}

/** The page's side: an EIP-1193 provider whose requests go to the exposed function above. */
const PROVIDER_SCRIPT = `(function () {
  var provider = {
    isRemitTestWallet: true,
    request: function (args) {
      return window.__remitTestWallet(args.method, JSON.stringify(args.params || [])).then(function (answer) {
        if (answer.error) {
          var error = new Error(answer.error.message);
          error.code = answer.error.code;
          throw error;
        }
        return answer.result;
      });
    },
    on: function () { return provider; },
    removeListener: function () { return provider; },
  };
  var info = {
    uuid: "5f1c7a52-8d3e-4b6a-9c0d-1e2f3a4b5c6d",
    name: "Test Wallet",
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'%3E%3Ccircle cx='5' cy='5' r='5' fill='%23f6851b'/%3E%3C/svg%3E",
    rdns: "test.remit.wallet",
  };
  window.addEventListener("eip6963:requestProvider", function () {
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info: info, provider: provider }) }));
  });
  window.ethereum = provider;
})();`;
