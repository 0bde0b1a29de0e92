import type { Child } from "hono/jsx";
import { formatUsdcForDisplay } from "../domain/money.ts";
import type { PaymentState } from "../domain/paymentState.ts";
import { WalletPay, type WalletSettings } from "./walletPanel.tsx";

/**
 * The element pay.js watches: it polls `data-status-url` and shows the panel of the state it
 * reads (`data-state`: sent, partial, paid…). Every payable page and the portal are one of these.
 */
export function PaymentRoot(props: {
  slug: string;
  /** Shown on the page anyway; as an attribute for tools (`remit dev pay <url>`). */
  depositAddress: string;
  totalUnits: bigint;
  state: string;
  redirectUrl?: string | null;
  /**
   * Priced in a currency: pay.js counts nothing down (its status speaks USDC); it reloads the
   * page when a payment arrives (`receivedUsdc` changes) or when the quote is about to lapse
   * (`renewInMs`: its time left less the two minutes a quote must have, counted from the page's
   * render, not on the browser's clock), so the server asks anew.
   */
  quoted?: { receivedUsdc: bigint; renewInMs: number | null };
  children: Child;
}) {
  return (
    <div
      id="payment"
      data-slug={props.slug}
      data-deposit-address={props.depositAddress}
      data-status-url={`/api/payments/status/${props.slug}`}
      data-poll-ms="5000"
      data-total-units={props.totalUnits.toString()}
      data-state={props.state}
      data-redirect={props.redirectUrl ?? undefined}
      data-quoted-received={props.quoted ? props.quoted.receivedUsdc.toString() : undefined}
      data-quote-renew-ms={
        props.quoted?.renewInMs != null ? String(props.quoted.renewInMs) : undefined
      }
    >
      {props.children}
    </div>
  );
}

/** The status badge pay.js keeps current. */
export function StatusBadge(props: { status: string }) {
  return (
    <p>
      <span class="badge" data-field="status" aria-live="polite">
        {props.status}
      </span>
    </p>
  );
}

/**
 * The two panels pay.js reveals as payments arrive: settled (with what came and the latest
 * transaction) and partly paid (with what is still due).
 */
export function PaymentProgress(props: {
  state: PaymentState;
  due: bigint;
  /** What was asked for: anything received beyond it is an overpayment the payer is told of. */
  total: bigint;
  /** What the merchant's confirmed refunds paid back (0 without any). */
  refunded?: bigint;
  doneTitle: string;
  /** What the amounts are in: USDC, or the currency the invoice is priced in. */
  unit?: string;
  children?: Child;
}) {
  const unit = props.unit ?? "USDC";
  const received = formatUsdcForDisplay(props.state.received);
  const excess = props.state.received > props.total ? props.state.received - props.total : 0n;
  const refunded = props.refunded ?? 0n;
  return (
    <>
      <section class="card done" role="status">
        <strong>{props.doneTitle}</strong>
        <br />
        <span class="small">
          Received <span data-field="received">{received}</span> {unit} · transaction{" "}
          <code class="txhash" data-field="tx">
            {props.state.latestTxHash ?? ""}
          </code>
        </span>
        {/* Shown in the excess state only (pay.css); pay.js keeps the amount current. */}
        <p class="excessnote small">
          <strong>
            You paid <span data-field="excess">{formatUsdcForDisplay(excess)}</span> {unit} more
            than the total of {formatUsdcForDisplay(props.total)} {unit}.
          </strong>{" "}
          {refunded >= excess && refunded > 0n
            ? "It was refunded to you."
            : refunded > 0n
              ? "Part of it was refunded to you (below); the rest stays with the merchant, who can refund it: contact them about it."
              : "The extra stays with the merchant, who can refund it to you: contact them about it."}
        </p>
        {refunded > 0n ? (
          <p class="small" data-refunded>
            <strong>
              Refunded to you: <span data-field="refunded">{formatUsdcForDisplay(refunded)}</span>{" "}
              USDC.
            </strong>
          </p>
        ) : null}
        {props.children}
      </section>
      <section class="card partialnote" role="status">
        <strong>Partly paid.</strong> Received <span data-field="received">{received}</span>{" "}
        {`${unit};`} still due <strong data-field="due">{formatUsdcForDisplay(props.due)}</strong>{" "}
        {unit}.
      </section>
    </>
  );
}

/** A transaction hash, shortened, linking to the block explorer when there is one. */
export function TxLink(props: { explorerUrl: string | null; txHash: string }) {
  const hash = <code>{`${props.txHash.slice(0, 10)}…${props.txHash.slice(-8)}`}</code>;
  if (!props.explorerUrl) return <span title={props.txHash}>{hash}</span>;
  return (
    <a href={`${props.explorerUrl}/tx/${props.txHash}`} rel="noopener noreferrer" target="_blank">
      {hash}
    </a>
  );
}

/** A value with a copy button. */
function CopyField(props: { label: string; value: string; id: string }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <div class="copyrow">
        <code id={props.id}>{props.value}</code>
        <button
          type="button"
          data-copy={props.value}
          aria-label={`Copy ${props.label.toLowerCase()}`}
        >
          Copy
        </button>
      </div>
    </div>
  );
}

/**
 * The block every payable page shows: the wallet button (revealed by wallet.js when the browser
 * has a wallet), the `ethereum:` link as a button on small screens, amount, address, QR code,
 * the network warning.
 */
export function PayWith(props: {
  due: bigint;
  depositAddress: string;
  qrSvg: string | null;
  /** The EIP-681 request of the QR code, for the small screens' button. */
  paymentUri?: string;
  wallet?: WalletSettings;
}) {
  // Nothing due (paid, excess, confirmed): no payment request at all, not one hidden by CSS.
  if (props.due <= 0n || !props.qrSvg) return null;
  const amount = formatUsdcForDisplay(props.due).replace(/,/g, "");
  return (
    <section class="card paywith" aria-labelledby="pay-heading">
      <h2 id="pay-heading">Pay with USDC on Base</h2>
      {props.wallet ? <WalletPay settings={props.wallet} /> : null}
      {props.paymentUri ? (
        <a class="deeplink" href={props.paymentUri} data-pay-uri>
          Open in your wallet app
        </a>
      ) : null}
      <CopyField label="Amount (USDC)" value={amount} id="pay-amount" />
      <CopyField label="Deposit address" value={props.depositAddress} id="pay-address" />
      <div
        class="qr"
        role="img"
        aria-label="QR code with a payment request for this amount and address"
        dangerouslySetInnerHTML={{ __html: props.qrSvg }}
      />
      <p class="warning">
        <strong>USDC on Base (chain 8453) only.</strong> Other tokens, or USDC on any other network,
        sent to this address are not credited.
      </p>
      <p class="small muted">This page updates by itself when your payment arrives.</p>
    </section>
  );
}
