/** The script of the wallet button, for the page's Layout (outside `main`, like pay.js). */
export const WALLET_SCRIPT = "/assets/wallet.js";

/** What the wallet button needs to know of the service. */
export type WalletSettings = {
  /** The service relays signed authorizations (a relayer and a gas budget). */
  gasless: boolean;
  /** Block explorer for the submitted transaction's link; none on a local chain. */
  explorerUrl: string | null;
};

/**
 * The "Pay with wallet" block. Hidden until WALLET_SCRIPT (/assets/wallet.js) finds a wallet in the browser
 * (without script, or without a wallet, the page is the QR code and the copy fields); the
 * script fills in a button per wallet and says each step in the status line.
 */
export function WalletPay(props: { settings: WalletSettings }) {
  return (
    <>
      <div
        class="wallet"
        id="wallet"
        hidden
        data-gasless={props.settings.gasless ? "on" : "off"}
        data-explorer-url={props.settings.explorerUrl ?? undefined}
      >
        <div class="walletbuttons" data-wallet-buttons />
        <label class="walletplain" data-wallet-plain>
          <input type="checkbox" /> Send a regular transfer instead (your wallet pays a little ETH
          for gas)
        </label>
        <p class="walletstatus" role="status" aria-live="polite" data-wallet-status />
      </div>
      <p class="orline small muted">or pay from any wallet or exchange:</p>
    </>
  );
}
