import type { Child } from "hono/jsx";

/** The frame of every hosted page: no inline script or style (see the CSP in web/routes.ts). */
export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{props.title}</title>
        <link rel="stylesheet" href="/assets/pay.css" />
      </head>
      <body>
        <main>{props.children}</main>
        <footer>USDC on Base · powered by Remit</footer>
        <script src="/assets/pay.js" defer />
      </body>
    </html>
  );
}

/** A value with a copy button. */
export function CopyField(props: { label: string; value: string; id: string }) {
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

/** The block every payable page shows: amount, address, QR code, the network warning. */
export function PayWith(props: {
  amount: string;
  amountLabel: string;
  depositAddress: string;
  qrSvg: string;
}) {
  return (
    <section class="card paywith" aria-labelledby="pay-heading">
      <h2 id="pay-heading">Pay with USDC on Base</h2>
      <CopyField label={props.amountLabel} value={props.amount} id="pay-amount" />
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

export function NotFoundPage(props: { what: string }) {
  return (
    <Layout title="Not found">
      <section class="card">
        <h1>Not found</h1>
        <p class="muted">
          There is no {props.what} at this address. Check the link you were given.
        </p>
      </section>
    </Layout>
  );
}
