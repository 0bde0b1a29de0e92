import type { InvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import { eInvoiceMissingFields } from "../../../app/invoices/invoiceEInvoice.ts";
import { isVoidable, reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatAmountForDisplay, formatUsdcForDisplay } from "../../../domain/money.ts";
import { blankCreditNoteForm, creditNoteRefusal } from "../creditNoteForm.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { CreditNotesCard } from "./creditNotesCard.tsx";
import { DataTable } from "./dataTable.tsx";
import { EInvoiceDownloads } from "./eInvoiceDownloads.tsx";
import { Field, type FormState } from "./formFields.tsx";
import { checksummed, Hash } from "./hashes.tsx";
import { InvoiceCurrencyCard } from "./invoiceCurrencyCard.tsx";
import { InvoiceTaxCard, lineTaxLabel, taxOfInvoice } from "./invoiceTax.tsx";
import { happenings } from "./invoiceTimeline.tsx";
import type { Session } from "./pageSession.ts";
import { usdc } from "./usdc.ts";

const NOTICES: Record<string, { tone: "ok" | "bad"; text: string }> = {
  redelivered: { tone: "ok", text: "The webhook is queued for redelivery." },
  created: { tone: "ok", text: "The invoice is created." },
  voided: { tone: "ok", text: "The invoice is void." },
  credited: { tone: "ok", text: "The credit note is issued and emailed to the customer." },
};

export function InvoiceDetailPage(props: {
  session: Session;
  detail: InvoiceDetail;
  notice?: string;
  problem?: string;
  /** A refund just requested: its amount and, without a destination, its claim link. */
  refunded?: { amount: string; claimUrl: string | null };
  /** The refund form as typed, shown again with the API's message per field. */
  refund?: { values: Record<string, string>; errors: Record<string, string> };
  /**
   * What a refund without an amount would take now (the API's own plan), or why there is none:
   * the amount field's hint.
   */
  refundDefault?: { amount: string } | { refused: string };
  /** The credit note form as typed, shown again with the messages per field. */
  creditNote?: FormState;
}) {
  const { invoice, lines, money } = props.detail;
  const readiness = eInvoiceMissingFields(invoice, lines);
  const status = reportedStatus(invoice.status, invoice.due_date, props.detail.today);
  const notice = props.notice ? NOTICES[props.notice] : undefined;
  const tax = taxOfInvoice(invoice, lines);
  // The invoice's own unit: USDC, or the currency it is priced in (its amounts are in it).
  const amount = (units: bigint) => formatAmountForDisplay(units, invoice.currency);
  const priced = props.detail.currency;
  return (
    <DashboardLayout
      title={`Invoice ${invoice.invoice_number}`}
      section="/dashboard/invoices"
      {...props.session}
    >
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {props.problem && <Alert tone="bad">{props.problem}</Alert>}
      {props.refunded && (
        <Alert tone="ok">
          A refund of {formatUsdcForDisplay(props.refunded.amount)} USDC is requested.
          {props.refunded.claimUrl && (
            <>
              {" "}
              The customer is emailed a link to name the address; you may hand it over yourself (it
              is shown to you only): <code>{props.refunded.claimUrl}</code>
            </>
          )}
        </Alert>
      )}
      <section class="card" aria-labelledby="summary">
        <h2 id="summary">
          <Badge status={status} /> {amount(invoice.total_amount)} from {invoice.vendor_name}
        </h2>
        {priced ? (
          // Refunds pay back USDC, so a net of the currency's received less them has no unit.
          <p>
            Received <strong data-figure="received">{amount(money.received)}</strong> (
            <span data-figure="received-usdc-summary">{usdc(props.detail.state.received)}</span>) ·
            refunded <strong data-figure="refunded">{usdc(money.refunded)}</strong> · still due{" "}
            <strong data-figure="due">{amount(money.due)}</strong>
          </p>
        ) : (
          <p>
            Received <strong data-figure="received">{usdc(money.received)}</strong> · refunded{" "}
            <strong data-figure="refunded">{usdc(money.refunded)}</strong> · net{" "}
            <strong data-figure="net">{usdc(money.net)}</strong> · still due{" "}
            <strong data-figure="due">{usdc(money.due)}</strong>
          </p>
        )}
        <p>
          Issued {invoice.issue_date} · due {invoice.due_date}
        </p>
        <p class="muted small">
          Customer: {invoice.vendor_name} &lt;{invoice.vendor_email}&gt;
          <br />
          Deposit address: <Hash value={checksummed(invoice.deposit_address)} />
        </p>
        <div class="actions">
          <a class="button" href={props.detail.pdfUrl}>
            Download PDF
          </a>
          <a class="button" href={props.detail.invoiceUrl}>
            Customer's page
          </a>
          {isVoidable(status) && (
            <form method="post" action={`/dashboard/invoices/${invoice.id}/void`} class="inline">
              <Csrf token={props.session.csrf} />
              <button type="submit">Void invoice…</button>
            </form>
          )}
        </div>
        <h3 id="einvoice">E-invoice</h3>
        <EInvoiceDownloads
          base={`/dashboard/invoices/${invoice.id}/einvoice`}
          readiness={readiness}
        />
      </section>
      {priced && <InvoiceCurrencyCard detail={props.detail} facts={priced} />}
      {/* Refunds pay back USDC: offered once USDC arrived, converted or not. */}
      {props.detail.state.received > 0n && (
        <section class="card" aria-labelledby="refund">
          <h2 id="refund">Refund</h2>
          <form method="post" action={`/dashboard/invoices/${invoice.id}/refunds`}>
            <Csrf token={props.session.csrf} />
            <Field
              name="amount"
              label="Amount in USDC"
              hint={
                props.refundDefault && "amount" in props.refundDefault
                  ? `Empty: ${formatUsdcForDisplay(props.refundDefault.amount)} USDC, what a refund without an amount takes now (as the API does). You confirm on the next screen.`
                  : props.refundDefault
                    ? `Nothing to refund now: ${props.refundDefault.refused}`
                    : "You confirm the amount on the next screen."
              }
              state={props.refund ?? { values: {}, errors: {} }}
            />
            <Field
              name="to"
              label="Send to address"
              hint="Empty: the customer is emailed a one-time link to name the address. An exchange pays from a shared wallet, so a payment's sender is often not the customer's own."
              state={props.refund ?? { values: {}, errors: {} }}
            />
            <button type="submit">Request refund…</button>
          </form>
        </section>
      )}
      <section class="card">
        <DataTable
          rows={lines}
          caption="Line items"
          columns={[
            { label: "Description", cell: (line) => line.description },
            { label: "Quantity", num: true, cell: (line) => line.quantity },
            { label: "Unit price", num: true, cell: (line) => amount(line.unit_price) },
            ...(tax ? [{ label: "Tax", num: true, cell: lineTaxLabel }] : []),
            { label: tax ? "Net" : "Total", num: true, cell: (line) => amount(line.line_total) },
          ]}
          foot={
            <tfoot>
              {tax && (
                <>
                  <FootRow
                    label="Subtotal"
                    span={4}
                    figure="subtotal"
                    amount={amount(tax.subtotal)}
                  />
                  <FootRow label="Tax" span={4} figure="tax" amount={amount(tax.tax)} />
                </>
              )}
              <FootRow
                label="Total"
                span={tax ? 4 : 3}
                figure="total"
                amount={amount(invoice.total_amount)}
                strong
              />
            </tfoot>
          }
        />
      </section>
      {tax && <InvoiceTaxCard view={tax} unit={invoice.currency} />}
      <CreditNotesCard
        session={props.session}
        detail={props.detail}
        refusal={creditNoteRefusal(props.detail)}
        form={props.creditNote ?? blankCreditNoteForm()}
        taxed={tax !== null}
        readiness={readiness}
      />
      <section class="card" aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <ol class="timeline">
          {happenings(props.detail, props.session.csrf).map((item) => (
            <li data-happening={item.key}>
              <Time at={item.at} />
              {item.body}
            </li>
          ))}
        </ol>
      </section>
    </DashboardLayout>
  );
}

/** A row of the line items' foot: a label across the other columns, and an amount (written). */
function FootRow(props: {
  label: string;
  span: number;
  figure: string;
  amount: string;
  strong?: boolean;
}) {
  return (
    <tr>
      <th scope="row" colspan={props.span}>
        {props.label}
      </th>
      <td class="num total" data-figure={props.figure}>
        {props.strong ? <strong>{props.amount}</strong> : props.amount}
      </td>
    </tr>
  );
}
