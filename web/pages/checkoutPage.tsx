import { getAddress } from "viem";
import type { LinkRow } from "../../db/queries/links.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import { Layout } from "../layout.tsx";
import { PaymentProgress, PaymentRoot, PayWith, StatusBadge } from "../paymentPanels.tsx";

/** `{PAY_URL}/pay/{slug}`: the checkout for a payment link; also what the iframe and w.js show. */
export function CheckoutPage(props: { link: LinkRow; state: PaymentState; qrSvg: string }) {
  const { link, state } = props;
  const due = link.amount > state.received ? link.amount - state.received : 0n;
  return (
    <Layout title={`Pay ${formatUsdcForDisplay(link.amount)} USDC: ${link.description}`}>
      <PaymentRoot
        slug={link.slug}
        depositAddress={getAddress(link.deposit_address)}
        totalUnits={link.amount}
        state={link.status}
        redirectUrl={link.redirect_url}
      >
        <section class="card">
          <p class="muted small">Payment request</p>
          <h1>{link.description}</h1>
          <p class="amount">{formatUsdcForDisplay(link.amount)} USDC</p>
          <StatusBadge status={link.status} />
        </section>
        <PaymentProgress state={state} due={due} doneTitle="Payment confirmed. Thank you!">
          {link.redirect_url ? (
            <p class="small">
              Returning you to the shop…{" "}
              <a href={link.redirect_url} target="_top">
                continue
              </a>
            </p>
          ) : null}
        </PaymentProgress>
        <PayWith
          amount={formatUsdcForDisplay(due > 0n ? due : link.amount).replace(/,/g, "")}
          amountLabel="Amount (USDC)"
          depositAddress={getAddress(link.deposit_address)}
          qrSvg={props.qrSvg}
        />
      </PaymentRoot>
    </Layout>
  );
}
