import { getAddress } from "viem";
import type { LinkRow } from "../../db/queries/links.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import { Layout, PayWith } from "../layout.tsx";

/** `{PAY_URL}/pay/{slug}`: the checkout for a payment link; also what the iframe and w.js show. */
export function CheckoutPage(props: { link: LinkRow; state: PaymentState; qrSvg: string }) {
  const { link, state } = props;
  const due = link.amount > state.received ? link.amount - state.received : 0n;
  return (
    <Layout title={`Pay ${formatUsdcForDisplay(link.amount)} USDC: ${link.description}`}>
      <div
        id="payment"
        data-slug={link.slug}
        data-status-url={`/api/payments/status/${link.slug}`}
        data-poll-ms="5000"
        data-total-units={link.amount.toString()}
        data-state={link.status}
        data-redirect={link.redirect_url ?? undefined}
      >
        <section class="card">
          <p class="muted small">Payment request</p>
          <h1>{link.description}</h1>
          <p class="amount">{formatUsdcForDisplay(link.amount)} USDC</p>
          <p>
            <span class="badge" data-field="status" aria-live="polite">
              {link.status}
            </span>
          </p>
        </section>
        <section class="card done" role="status">
          <strong>Payment confirmed.</strong> Thank you!
          <br />
          <span class="small">
            Received <span data-field="received">{formatUsdcForDisplay(state.received)}</span> USDC
            · transaction <code data-field="tx">{state.latestTxHash ?? ""}</code>
          </span>
          {link.redirect_url ? (
            <p class="small">
              Returning you to the shop…{" "}
              <a href={link.redirect_url} target="_top">
                continue
              </a>
            </p>
          ) : null}
        </section>
        <section class="card partialnote" role="status">
          <strong>Partly paid.</strong> Received{" "}
          <span data-field="received">{formatUsdcForDisplay(state.received)}</span> USDC; still due{" "}
          <strong data-field="due">{formatUsdcForDisplay(due)}</strong> USDC.
        </section>
        <PayWith
          amount={formatUsdcForDisplay(due > 0n ? due : link.amount).replace(/,/g, "")}
          amountLabel="Amount (USDC)"
          depositAddress={getAddress(link.deposit_address)}
          qrSvg={props.qrSvg}
        />
      </div>
    </Layout>
  );
}
