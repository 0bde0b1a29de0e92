import type { PayoutRow } from "../../../app/payouts/createPayout.ts";
import type { ManagedWalletFunds } from "../../../domain/managedWallet.ts";
import { formatUsdc, formatUsdcForDisplay } from "../../../domain/money.ts";
import { Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { ConfirmCard } from "./confirmCard.tsx";
import { Field, type FormState } from "./formFields.tsx";
import { checksummed, Hash } from "./hashes.tsx";
import type { Session } from "./pageSession.ts";
import { usdc } from "./usdc.ts";

/**
 * The settings page's card of the managed wallet: its balance, what refunds and payouts on
 * their way reserve, what is available, the "Withdraw" form (to a payout wallet only) and the
 * last payouts.
 */
export function ManagedWalletCard(props: {
  session: Session;
  wallet: { address: string; funds: ManagedWalletFunds };
  payoutWallets: string[];
  payouts: PayoutRow[];
  state: Pick<FormState, "values" | "errors">;
}) {
  const { funds } = props.wallet;
  const values = {
    amount: formatUsdc(funds.available),
    to: props.payoutWallets[0] ?? "",
    ...props.state.values,
  };
  return (
    <section class="card wallet" aria-labelledby="managed-wallet">
      <h2 id="managed-wallet">Managed wallet</h2>
      <p class="muted small">
        Where invoices and links paid into a wallet Remit manages are swept:{" "}
        <Hash value={checksummed(props.wallet.address)} />
      </p>
      <dl class="facts">
        <dt>Balance</dt>
        <dd data-figure="balance">{usdc(funds.balance)}</dd>
        <dt>Reserved</dt>
        <dd data-figure="reserved">
          {usdc(funds.reserved)} <span class="muted small">(refunds and payouts on their way)</span>
        </dd>
        <dt>Available</dt>
        <dd data-figure="available">
          <strong>{usdc(funds.available)}</strong>
        </dd>
      </dl>
      {props.payoutWallets.length === 0 ? (
        <p>To withdraw, add a payout wallet below first: money leaves only to your own wallets.</p>
      ) : (
        <form method="post" action="/dashboard/settings/payouts">
          <h3>Withdraw</h3>
          <Csrf token={props.session.csrf} />
          <Field
            name="amount"
            label="Amount in USDC"
            state={{ values, errors: props.state.errors }}
            hint={`At most ${usdc(funds.available)}. You confirm on the next screen.`}
            required
          />
          <div class="field">
            <label for="payout-to">To your payout wallet</label>
            <select id="payout-to" name="to">
              {props.payoutWallets.map((address) => (
                <option value={address} selected={values.to === address}>
                  {address}
                </option>
              ))}
            </select>
            {props.state.errors.to && <p class="error">{props.state.errors.to}</p>}
          </div>
          <button type="submit">Withdraw…</button>
        </form>
      )}
      {props.payouts.length > 0 && (
        <>
          <h3>Last payouts</h3>
          <ul class="payouts">
            {props.payouts.map((payout) => (
              <li>
                <strong>{usdc(payout.amount)}</strong> to{" "}
                <Hash value={checksummed(payout.to_address)} /> · <Time at={payout.created_at} /> ·{" "}
                <Badge status={payout.status} />
                {payout.error && payout.status === "failed" && (
                  <span class="muted small"> ({payout.error})</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** The second screen of "Withdraw": the amount, from where, to where; then the button. */
export function PayoutConfirmPage(props: {
  session: Session;
  amount: string;
  from: string;
  to: string;
  /** The one-time action key the confirmation is submitted with (web/dashboard/actionKey.ts). */
  actionKey: string;
}) {
  return (
    <DashboardLayout
      title={`Withdraw ${formatUsdcForDisplay(props.amount)} USDC?`}
      section="/dashboard/settings"
      {...props.session}
    >
      <ConfirmCard
        action="/dashboard/settings/payouts"
        csrf={props.session.csrf}
        button={`Withdraw ${formatUsdcForDisplay(props.amount)} USDC`}
        cancel="/dashboard/settings"
        hidden={{ amount: props.amount, to: props.to, idempotency_key: props.actionKey }}
      >
        <dl class="facts">
          <dt>Amount</dt>
          <dd>
            <strong data-figure="amount">{formatUsdcForDisplay(props.amount)} USDC</strong>
          </dd>
          <dt>From</dt>
          <dd data-figure="from">
            Your managed wallet <Hash value={checksummed(props.from)} />
          </dd>
          <dt>To</dt>
          <dd data-figure="to">
            Your payout wallet <Hash value={checksummed(props.to)} />
          </dd>
        </dl>
        <p class="muted small">
          The relayer sends it once confirmed here; a payout on its way cannot be called back. We
          email you about it.
        </p>
      </ConfirmCard>
    </DashboardLayout>
  );
}
