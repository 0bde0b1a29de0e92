import type { Child } from "hono/jsx";
import { getAddress } from "viem";
import type { LinkRow } from "../../app/pages/hostedPages.ts";
import type { CurrencyFacts } from "../../app/payments/currencyFacts.ts";
import { askedUsdc } from "../../app/payments/presentCurrency.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";
import { receivedInOwnUnit } from "../../domain/moneyRules.ts";
import { amountDue, type PaymentState } from "../../domain/paymentState.ts";
import { Layout } from "../layout.tsx";
import { PaymentProgress, PaymentRoot, PayWith, StatusBadge } from "../paymentPanels.tsx";
import { QuoteNote, quotedPage } from "../quoteNote.tsx";
import { WALLET_SCRIPT, type WalletSettings } from "../walletPanel.tsx";

/** `{PAY_URL}/pay/{slug}`: the checkout for a payment link; also what the iframe and w.js show. */
export function CheckoutPage(props: {
  link: LinkRow;
  state: PaymentState;
  /** What the merchant's confirmed refunds paid back to the payer (0 or absent: none). */
  refunded?: bigint;
  qrSvg: string | null;
  /**
   * The wallet button and the `ethereum:` link (absent: only the QR code and copy fields; no
   * paymentUri: no link, as in w.js's frame on a desktop).
   */
  pay?: { paymentUri?: string; wallet: WalletSettings };
  /** The "Paid but not showing?" box (web/paidButNotShowing.tsx). */
  paidCheck?: Child;
  /** The link's x402 resource: a `<link rel="payment">` for software (the checkout shows none). */
  x402Url?: string;
  /** Priced in a currency: what is asked in USDC now (its quote), or why nothing is. */
  currency?: CurrencyFacts | null;
}) {
  const { link, currency } = props;
  const unit = link.currency;
  // Amounts read in the link's unit: in a currency, what its payments counted for in it.
  const state = { ...props.state, received: receivedInOwnUnit(unit, props.state) };
  const due = amountDue(link.amount, state.received);
  // What the payer sends, in USDC: the amount due itself, or the quote standing for it.
  const asked = askedUsdc(currency, due);
  return (
    <Layout
      scripts={props.pay && asked > 0n ? [WALLET_SCRIPT] : []}
      x402Url={due > 0n ? props.x402Url : undefined}
      title={`Pay ${formatUsdcForDisplay(link.amount)} ${unit}${link.merchant_name ? ` to ${link.merchant_name}` : ""}: ${link.description}`}
    >
      <PaymentRoot
        slug={link.slug}
        depositAddress={getAddress(link.deposit_address)}
        totalUnits={link.amount}
        state={link.status}
        redirectUrl={link.redirect_url}
        quoted={quotedPage(currency, props.state.received)}
      >
        <section class="card">
          <p class="muted small">
            Payment request{link.merchant_name ? " from " : ""}
            {link.merchant_name ? <strong class="merchant">{link.merchant_name}</strong> : null}
          </p>
          <h1>{link.description}</h1>
          <p class="amount">
            {formatUsdcForDisplay(link.amount)} {unit}
          </p>
          <StatusBadge status={link.status} />
        </section>
        <PaymentProgress
          state={state}
          due={due}
          total={link.amount}
          refunded={props.refunded}
          doneTitle="Payment confirmed. Thank you!"
          unit={unit}
        >
          {link.redirect_url ? (
            <p class="small">
              Returning you to the shop…{" "}
              <a href={link.redirect_url} target="_top">
                continue
              </a>
            </p>
          ) : null}
        </PaymentProgress>
        {currency && due > 0n ? <QuoteNote currency={currency} due={due} /> : null}
        <PayWith
          due={asked}
          depositAddress={getAddress(link.deposit_address)}
          qrSvg={props.qrSvg}
          {...props.pay}
        />
        {props.paidCheck}
      </PaymentRoot>
    </Layout>
  );
}
