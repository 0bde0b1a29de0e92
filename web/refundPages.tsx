/** What the claim page shows of the refund: its amount and what it is for. */
import type { RefundClaimView } from "../app/refunds/claimRefund.ts";
import { formatUsdcForDisplay } from "../domain/money.ts";
import { CardPage, Layout } from "./layout.tsx";

export type { RefundClaimView };

const EXCHANGE_WARNING =
  "Give the address of a wallet you control on Base (USDC on Base, chain 8453). Do not give an exchange deposit address, and do not simply reuse the address you paid from if you paid from an exchange: exchanges send from shared wallets, and money sent back there may never reach you.";

/**
 * `{PAY_URL}/refund/{token}`: the payer names the address a refund goes to. Nothing happens
 * until the form is posted (mail scanners open links); the post uses the link once.
 */
export function RefundClaimPage(props: {
  refund: RefundClaimView;
  error?: string;
  value?: string;
}) {
  const { refund } = props;
  return (
    <Layout title="Claim your refund">
      <section class="card">
        <p class="muted small">Refund from {refund.merchantName}</p>
        <h1>Claim your refund</h1>
        <p class="amount">{formatUsdcForDisplay(refund.amount)} USDC</p>
        <p class="small">For {refund.what}. Sent on Base as USDC, with no fee to you.</p>
        <p class="warning">{EXCHANGE_WARNING}</p>
        <form method="post">
          <div class="field">
            <label for="address">Your wallet address on Base</label>
            <input
              id="address"
              name="address"
              type="text"
              required
              autocomplete="off"
              spellcheck={false}
              placeholder="0x…"
              pattern="^0x[0-9a-fA-F]{40}$"
              value={props.value ?? ""}
              aria-invalid={props.error ? "true" : undefined}
              aria-describedby={props.error ? "address-error" : undefined}
            />
            {props.error ? (
              <p id="address-error" class="walletstatus" data-tone="error" role="alert">
                {props.error}
              </p>
            ) : null}
          </div>
          <div class="field check">
            <input id="confirm" name="confirm" type="checkbox" value="yes" required />
            <label for="confirm">
              This is a wallet I control on Base, not an exchange deposit address.
            </label>
          </div>
          <button type="submit" class="primary">
            Send my refund to this address
          </button>
          <p class="muted small">This link works once: the refund goes to the address you send.</p>
        </form>
      </section>
    </Layout>
  );
}

/** The address was taken: the refund is on its way. */
export function RefundClaimedPage(props: { amount: bigint; to: string }) {
  return (
    <CardPage title="Your refund is on its way">
      <p>
        <strong>{formatUsdcForDisplay(props.amount)} USDC</strong> is being sent to
      </p>
      <div class="copyrow">
        <code>{props.to}</code>
      </div>
      <p class="muted small">
        It usually arrives within a minute. The merchant and you are emailed once it is paid.
      </p>
    </CardPage>
  );
}

/** An unknown, expired or used link: one answer for all three. */
export function RefundClaimRefusedPage() {
  return (
    <CardPage title="This refund link no longer works">
      <p class="muted">
        Refund links work once, for a limited time. If you have not received your refund, ask the
        merchant for a new link.
      </p>
    </CardPage>
  );
}
