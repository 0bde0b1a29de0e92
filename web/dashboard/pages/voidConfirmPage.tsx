import type { InvoiceRow } from "../../../app/invoices/invoiceDetail.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { DashboardLayout } from "../layout.tsx";
import { ConfirmCard } from "./confirmCard.tsx";
import { checksummed, Hash } from "./hashes.tsx";
import type { Session } from "./pageSession.ts";

/** The second screen of "Void invoice": nothing happens until its button is pressed. */
export function VoidConfirmPage(props: { session: Session; invoice: InvoiceRow }) {
  const { invoice } = props;
  // In the invoice's unit: USDC, or the currency it is priced in.
  const amount = (units: bigint) => formatAmountForDisplay(units, invoice.currency);
  return (
    <DashboardLayout
      title={`Void invoice ${invoice.invoice_number}?`}
      section="/dashboard/invoices"
      {...props.session}
    >
      <ConfirmCard
        action={`/dashboard/invoices/${invoice.id}/void`}
        csrf={props.session.csrf}
        button={`Void invoice ${invoice.invoice_number}`}
        cancel={`/dashboard/invoices/${invoice.id}`}
      >
        <p>
          Invoice <strong>{invoice.invoice_number}</strong> of{" "}
          <strong data-figure="amount">{amount(invoice.total_amount)}</strong> to{" "}
          {invoice.vendor_name} &lt;{invoice.vendor_email}&gt; will no longer be payable. Nothing
          was paid, so no money moves.
        </p>
        <p class="muted small">
          Its deposit address <Hash value={checksummed(invoice.deposit_address)} /> stops asking for
          payment; anything sent there later is held for you to refund. Voiding cannot be undone.
        </p>
      </ConfirmCard>
    </DashboardLayout>
  );
}
