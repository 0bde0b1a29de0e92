import type { LinkRow, RefundRow } from "../../../app/links/linkDetail.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { netReceived, refundedAmount } from "../../../domain/moneyRules.ts";
import type { IndexedTransfer } from "../../../domain/paymentState.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { CurrencyField, Field, type FormState, UnitLabel, WalletTypeField } from "./formFields.tsx";
import { checksummed, Hash, TxLink } from "./hashes.tsx";
import type { Session } from "./pageSession.ts";
import { RefundItem } from "./refundItem.tsx";
import { usdc } from "./usdc.ts";

/** A snippet to copy, in a code box with its copy button. */
function Snippet(props: { id: string; label: string; text: string }) {
  return (
    <div class="field">
      <p>
        <strong id={`${props.id}-label`}>{props.label}</strong>
      </p>
      <div class="copyrow">
        <code id={props.id}>{props.text}</code>
        <button type="button" data-copy-target={props.id} aria-label={`Copy: ${props.label}`}>
          Copy
        </button>
      </div>
    </div>
  );
}

export function LinkDetailPage(props: {
  session: Session;
  link: LinkRow;
  /** In the link's unit (its currency, when priced in one). */
  received: bigint;
  /** The USDC that arrived. */
  receivedUsdc: bigint;
  /** Every refund requested, oldest first. */
  refunds: RefundRow[];
  snippets: { payment_link: string; iframe_snippet: string; js_widget_snippet: string };
  transfers: IndexedTransfer[];
  explorerUrl: string | null;
  notice?: string;
}) {
  const { link } = props;
  const refunded = refundedAmount(props.refunds);
  const amount = (units: bigint) => formatAmountForDisplay(units, link.currency);
  return (
    <DashboardLayout title={link.description} section="/dashboard/links" {...props.session}>
      {props.notice === "created" && <Alert tone="ok">The payment link is created.</Alert>}
      <section class="card">
        <h2>
          <Badge status={link.status} /> {amount(link.amount)}
        </h2>
        {link.currency === "USDC" ? (
          <p>
            Received <strong data-figure="received">{usdc(props.received)}</strong> · refunded{" "}
            <strong data-figure="refunded">{usdc(refunded)}</strong> · net{" "}
            <strong data-figure="net">{usdc(netReceived(props.received, refunded))}</strong> ·
            created <Time at={link.created_at} />
          </p>
        ) : (
          // Refunds pay back USDC, so a net of the currency's received less them has no unit.
          <p>
            Received <strong data-figure="received">{amount(props.received)}</strong> (
            <span data-figure="received-usdc">{usdc(props.receivedUsdc)}</span>) · refunded{" "}
            <strong data-figure="refunded">{usdc(refunded)}</strong> · created{" "}
            <Time at={link.created_at} />
          </p>
        )}
        <p class="muted small">
          Deposit address: <Hash value={checksummed(link.deposit_address)} />
        </p>
      </section>
      <section class="card">
        <h2>Share or embed it</h2>
        <Snippet
          id="snippet-link"
          label="Link to the checkout"
          text={props.snippets.payment_link}
        />
        <Snippet id="snippet-iframe" label="Iframe snippet" text={props.snippets.iframe_snippet} />
        <Snippet
          id="snippet-widget"
          label="Widget snippet (a Pay with USDC button)"
          text={props.snippets.js_widget_snippet}
        />
      </section>
      <section class="card">
        <h2>Payments</h2>
        {props.transfers.length === 0 ? (
          <p class="muted">No payments yet.</p>
        ) : (
          <ul>
            {props.transfers.map((t) => (
              <li>
                <Time at={t.paidAt} /> {usdc(t.value)} from <Hash value={checksummed(t.from)} />:{" "}
                <TxLink hash={t.txHash} explorerUrl={props.explorerUrl} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {props.refunds.length > 0 && (
        <section class="card">
          <h2>Refunds</h2>
          <ul>
            {props.refunds.map((refund) => (
              <li data-refund={refund.id}>
                <Time at={refund.confirmed_at ?? refund.created_at} />{" "}
                <RefundItem refund={refund} explorerUrl={props.explorerUrl} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </DashboardLayout>
  );
}

export function NewLinkPage(props: { session: Session; state: FormState }) {
  const { state } = props;
  return (
    <DashboardLayout title="New payment link" section="/dashboard/links" {...props.session}>
      {state.problem && <Alert tone="bad">{state.problem}</Alert>}
      {Object.keys(state.errors).length > 0 && (
        <Alert tone="bad">The link was not created: fix the fields marked below.</Alert>
      )}
      <form method="post" action="/dashboard/links/new" novalidate>
        <Csrf token={props.session.csrf} />
        <input type="hidden" name="_idempotency_key" value={state.idempotencyKey} />
        <section class="card">
          <Field name="description" label="What it is for" state={state} required />
          <CurrencyField state={state} amounts="the amount then has" />
          <Field
            name="amount"
            label={<UnitLabel text="Amount" unit={state.values.currency || "USDC"} />}
            state={state}
            required
            hint='For example "12.50".'
          />
          <Field name="merchant_name" label="Your name on the checkout" state={state} />
          <WalletTypeField state={state} />
          <Field name="wallet_address" label="Payout wallet (for your own wallet)" state={state} />
          <Field name="webhook_url" label="Webhook URL" type="url" state={state} />
          <Field
            name="redirect_url"
            label="Send the payer here once paid"
            type="url"
            state={state}
          />
          <button type="submit" class="primary">
            Create link
          </button>
        </section>
      </form>
    </DashboardLayout>
  );
}
