import type { InvoiceRow } from "../../../app/invoices/invoiceDetail.ts";
import { formatAmountForDisplay, formatUsdcForDisplay } from "../../../domain/money.ts";
import { DashboardLayout } from "../layout.tsx";
import { ConfirmCard } from "./confirmCard.tsx";
import { Hash } from "./hashes.tsx";
import type { Session } from "./pageSession.ts";

/** What the refund asked for would do (the API's own plan), before it is requested. */
export type RefundConfirmation = {
  amount: string;
  source: "deposit" | "managed_wallet";
  from: string;
  to: string | null;
  vendorEmail: string | null;
  /** What it returns in the invoice's currency (null in USDC, or nothing converted yet). */
  inCurrency?: string | null;
};

/** The second screen of "Request refund": the amount, where from and where to; then the button. */
export function RefundConfirmPage(props: {
  session: Session;
  invoice: InvoiceRow;
  refund: RefundConfirmation;
  /** The one-time action key the confirmation is submitted with (web/dashboard/actionKey.ts). */
  actionKey: string;
}) {
  const { invoice, refund } = props;
  return (
    <DashboardLayout
      title={`Refund ${formatUsdcForDisplay(refund.amount)} USDC?`}
      section="/dashboard/invoices"
      {...props.session}
    >
      <ConfirmCard
        action={`/dashboard/invoices/${invoice.id}/refunds`}
        csrf={props.session.csrf}
        button={`Refund ${formatUsdcForDisplay(refund.amount)} USDC`}
        cancel={`/dashboard/invoices/${invoice.id}`}
        hidden={{
          amount: refund.amount,
          ...(refund.to ? { to: refund.to } : {}),
          idempotency_key: props.actionKey,
        }}
      >
        <dl class="facts">
          <dt>Amount</dt>
          <dd>
            <strong data-figure="amount">{formatUsdcForDisplay(refund.amount)} USDC</strong> for
            invoice {invoice.invoice_number}
          </dd>
          {refund.inCurrency ? (
            <>
              <dt>Returns</dt>
              <dd data-figure="in-currency">
                {formatAmountForDisplay(refund.inCurrency, invoice.currency)} of what the payments
                counted for (refunds pay back USDC)
              </dd>
            </>
          ) : null}
          <dt>From</dt>
          <dd data-figure="from">
            {refund.source === "deposit" ? "The invoice's deposit address" : "Your managed wallet"}{" "}
            <Hash value={refund.from} />
          </dd>
          <dt>To</dt>
          <dd data-figure="to">
            {refund.to ? (
              <Hash value={refund.to} />
            ) : refund.vendorEmail ? (
              `a one-time claim link emailed to ${refund.vendorEmail}, where the customer names the address`
            ) : (
              "a one-time claim link, where the customer names the address"
            )}
          </dd>
        </dl>
        <p class="muted small">
          The relayer sends it once confirmed here; a refund on its way cannot be called back.
        </p>
      </ConfirmCard>
    </DashboardLayout>
  );
}
