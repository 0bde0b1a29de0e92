import type { Child } from "hono/jsx";
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import { Alert, Csrf, DashboardLayout } from "../layout.tsx";
import { Field, type FormState, SaveButton } from "./formFields.tsx";
import type { Session } from "./pageSession.ts";

export function SettingsPage(props: {
  session: Session;
  state: Pick<FormState, "values" | "errors">;
  wallets: { address: string; created_at: Date }[];
  managedWallet: string | null;
  walletState: Pick<FormState, "values" | "errors">;
  notice?: string;
  extra?: Child;
  /** The managed wallet's card (web/dashboard/pages/payouts.tsx), once the account has one. */
  managedWalletCard?: Child;
  /** A payout just requested (the page after its redirect). */
  payoutRequested?: { amount: string; to: string };
  /** The notification email in use (null: the account email), and one waiting for its link. */
  notificationEmail?: { current: string | null; pending: string | null };
}) {
  const pending = props.notificationEmail?.pending;
  const inUse = props.notificationEmail?.current ?? props.session.email;
  const notices: Record<string, string> = {
    saved: "Settings saved.",
    saved_pending:
      "Settings saved. We emailed a link to the new notification address: payment notices go there once it is followed.",
    wallet_added: "The wallet is added; we emailed you about it.",
    wallet_removed: "The wallet is removed.",
  };
  return (
    <DashboardLayout title="Settings" section="/dashboard/settings" {...props.session}>
      {props.notice && notices[props.notice] && <Alert tone="ok">{notices[props.notice]}</Alert>}
      {props.payoutRequested && (
        <Alert tone="ok">
          A payout of {formatUsdcForDisplay(props.payoutRequested.amount)} USDC to{" "}
          {props.payoutRequested.to} is requested: it arrives within a minute, and we emailed you
          about it.
        </Alert>
      )}
      {props.managedWalletCard}
      <section class="card">
        <h2>Invoice defaults and notifications</h2>
        <form method="post" action="/dashboard/settings">
          <Csrf token={props.session.csrf} />
          <Field name="default_name" label="Your name on new invoices" state={props.state} />
          <Field
            name="default_address"
            label="Your address on new invoices"
            state={props.state}
            multiline
          />
          <Field
            name="notification_email"
            label="Send payment notices to"
            type="email"
            state={props.state}
            hint={
              pending
                ? `Waiting for the link we emailed to ${pending}; until it is followed, notices go to ${inUse}. Empty: ${props.session.email}.`
                : `Empty: ${props.session.email}. A new address gets a link to follow before notices go there.`
            }
          />
          <Field
            name="underpayment_tolerance"
            label="Underpayment tolerance (USDC)"
            state={props.state}
            hint="A shortfall of at most this still counts as paid (exchange withdrawal fees); 0.00: only the exact total. At most 10.00; new invoices keep the value they were created with."
          />
          {props.extra}
          <SaveButton />
        </form>
      </section>
      <section class="card">
        <h2>Payout wallets</h2>
        <p class="muted small">
          Where invoices and links paid into your own wallet may send money. Adding one emails you.
          {props.managedWallet && (
            <>
              {" "}
              Your managed wallet: <code>{props.managedWallet}</code>.
            </>
          )}
        </p>
        {props.wallets.length > 0 && (
          <ul>
            {props.wallets.map((wallet) => (
              <li>
                <code>{wallet.address}</code>{" "}
                <form method="post" action="/dashboard/settings/wallets/remove" class="inline">
                  <Csrf token={props.session.csrf} />
                  <input type="hidden" name="address" value={wallet.address} />
                  <button
                    type="submit"
                    class="danger"
                    aria-label={`Remove wallet ${wallet.address}`}
                  >
                    Remove
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <form method="post" action="/dashboard/settings/wallets">
          <Csrf token={props.session.csrf} />
          <Field
            name="address"
            label="Add a wallet (EIP-55 address on Base)"
            state={props.walletState}
            required
          />
          <button type="submit">Add wallet</button>
        </form>
      </section>
      <section class="card">
        <h2>Payment reminders</h2>
        <p>
          When your customers are reminded of what they owe:{" "}
          <a href="/dashboard/reminders">reminder policy</a>.
        </p>
      </section>
    </DashboardLayout>
  );
}
