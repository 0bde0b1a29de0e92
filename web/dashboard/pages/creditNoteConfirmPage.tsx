import type { InvoiceRow } from "../../../app/invoices/invoiceDetail.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import type { CreditNotePreview } from "../creditNoteForm.ts";
import type { FormFields } from "../forms.ts";
import { DashboardLayout } from "../layout.tsx";
import { ConfirmCard } from "./confirmCard.tsx";
import type { Session } from "./pageSession.ts";

/**
 * The second screen of "Issue credit note": what it credits, its total and what the invoice
 * asks for after it; nothing is issued until its button is pressed. The form's fields ride
 * along, hidden, with a one-time action key.
 */
export function CreditNoteConfirmPage(props: {
  session: Session;
  invoice: InvoiceRow;
  /** What the invoice asks for now. */
  asksFor: bigint;
  preview: CreditNotePreview;
  /** The fields to post again (the choice, the reason, the lines as typed). */
  fields: FormFields;
  actionKey: string;
}) {
  const { invoice, preview } = props;
  // In the invoice's unit: USDC, or the currency it is priced in.
  const amount = (units: bigint) => formatAmountForDisplay(units, invoice.currency);
  return (
    <DashboardLayout
      title={`Credit ${amount(preview.total)} on invoice ${invoice.invoice_number}?`}
      section="/dashboard/invoices"
      {...props.session}
    >
      <ConfirmCard
        action={`/dashboard/invoices/${invoice.id}/credit-notes`}
        csrf={props.session.csrf}
        button={`Issue credit note of ${amount(preview.total)}`}
        cancel={`/dashboard/invoices/${invoice.id}`}
        hidden={{ ...props.fields, idempotency_key: props.actionKey }}
      >
        <dl class="facts">
          <dt>Credits</dt>
          <dd>
            <strong data-figure="credit-total">{amount(preview.total)}</strong>
            {preview.tax !== null && ` (tax ${amount(preview.tax)})`} of invoice{" "}
            {invoice.invoice_number} to {invoice.vendor_name}
          </dd>
          <dt>What</dt>
          <dd>
            {preview.lines ? (
              <ul class="plain" data-figure="credit-lines">
                {preview.lines.map((line) => (
                  <li>
                    {line.description}: {line.quantity} × {amount(line.unitPrice)}
                    {line.tax &&
                      ` · ${[line.tax.rate ? `${line.tax.rate.text} %` : "", line.tax.category]
                        .filter(Boolean)
                        .join(" · ")}`}
                  </li>
                ))}
              </ul>
            ) : (
              "Everything the invoice still asks for"
            )}
          </dd>
          <dt>Reason</dt>
          <dd data-figure="reason">{preview.input.reason}</dd>
          <dt>Asks for after it</dt>
          <dd>
            <strong data-figure="asks-for-after">{amount(props.asksFor - preview.total)}</strong>{" "}
            instead of {amount(props.asksFor)}
          </dd>
        </dl>
        <p class="muted small">
          The credit note is numbered, emailed to {invoice.vendor_email} with its PDF, and cannot be
          withdrawn: a credit note is a document, like the invoice. What was received above the new
          amount becomes refundable.
        </p>
      </ConfirmCard>
    </DashboardLayout>
  );
}
