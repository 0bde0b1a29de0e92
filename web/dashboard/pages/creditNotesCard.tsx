import type { InvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { Csrf } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { EINVOICE_LABELS, type EInvoiceReadiness, readyFormats } from "./eInvoiceDownloads.tsx";
import { Field, type FormState } from "./formFields.tsx";
import { LinesEditor } from "./invoiceFormCards.tsx";
import type { Session } from "./pageSession.ts";

/**
 * An invoice's credit notes on its page: what they took off and what it asks for now, each
 * note with its PDF and e-invoices, and the form that issues one (none where the rules refuse:
 * `refusal`). Nothing at all for an invoice with neither.
 */
export function CreditNotesCard(props: {
  session: Session;
  detail: InvoiceDetail;
  /** Why no credit note can be issued now (domain/creditNotes.ts creditRefusal), or null. */
  refusal: string | null;
  /** The form as typed, with the messages per field. */
  form: FormState;
  /** Whether the invoice's lines carry tax (a credit note's lines then do). */
  taxed: boolean;
  readiness: EInvoiceReadiness;
}) {
  const { invoice, money, creditNotes } = props.detail;
  if (creditNotes.length === 0 && props.refusal) return null;
  const amount = (units: bigint) => formatAmountForDisplay(units, invoice.currency);
  const ready = readyFormats(props.readiness);
  return (
    <section class="card" aria-labelledby="credit-notes">
      <h2 id="credit-notes">Credit notes</h2>
      <p>
        Invoiced <strong data-figure="invoiced-total">{amount(invoice.total_amount)}</strong> ·
        credited <strong data-figure="credited">{amount(money.credited)}</strong> · asks for now{" "}
        <strong data-figure="asks-for">{amount(money.invoiced)}</strong>
      </p>
      {creditNotes.length > 0 && (
        <DataTable
          rows={creditNotes}
          caption="Credit notes issued"
          captionClass="sr-only"
          rowAttributes={(note) => ({ "data-credit-note": note.credit_note_number })}
          columns={[
            { label: "Number", cell: (note) => note.credit_note_number },
            { label: "Date", cell: (note) => note.issue_date },
            { label: "Reason", cell: (note) => note.reason },
            { label: "Amount", num: true, cell: (note) => amount(note.total_amount) },
            {
              label: "Documents",
              cell: (note) => (
                <span class="doclinks">
                  <a href={`/dashboard/credit-notes/${note.id}/pdf`} data-document="pdf">
                    PDF
                  </a>
                  {ready.map((format) => (
                    <a
                      href={`/dashboard/credit-notes/${note.id}/einvoice?format=${format}`}
                      data-einvoice={format}
                    >
                      {EINVOICE_LABELS[format]}
                    </a>
                  ))}
                </span>
              ),
            },
          ]}
        />
      )}
      {creditNotes.length > 0 && ready.length < 3 && (
        <p class="muted small">
          Its credit notes' e-invoices need what the invoice's own need (see above).
        </p>
      )}
      {props.refusal ? (
        <p class="muted small" data-credit-refused>
          No further credit note: {props.refusal}.
        </p>
      ) : (
        <CreditNoteForm {...props} />
      )}
    </section>
  );
}

/** Issue a credit note: everything the invoice still asks for, or lines; a reason; then confirm. */
function CreditNoteForm(props: {
  session: Session;
  detail: InvoiceDetail;
  form: FormState;
  taxed: boolean;
}) {
  const { invoice, money } = props.detail;
  const { form } = props;
  const amount = (units: bigint) => formatAmountForDisplay(units, invoice.currency);
  const lines = form.values.credit === "lines";
  const error = form.errors.credit;
  return (
    <form
      method="post"
      action={`/dashboard/invoices/${invoice.id}/credit-notes`}
      id="credit-note-form"
      data-unit={invoice.currency}
      novalidate
    >
      <Csrf token={props.session.csrf} />
      {/* Enter in a field asks for the confirmation, not a line's Remove. */}
      <button type="submit" name="_action" value="create" class="sr-only" tabindex={-1}>
        Issue credit note…
      </button>
      <h3>Issue a credit note</h3>
      <p class="muted small">
        The one way to correct an issued invoice: it lowers what the invoice asks for and is sent to{" "}
        {invoice.vendor_email} with its PDF. You confirm on the next screen.
      </p>
      {form.problem && <p class="error">{form.problem}</p>}
      <fieldset class="checks" aria-describedby={error ? "credit-error" : undefined}>
        <legend>What to credit</legend>
        <div class="checkgrid">
          <label class="check">
            <input type="radio" name="credit" value="full" checked={!lines} /> Everything it still
            asks for ({amount(money.invoiced)})
          </label>
          <label class="check">
            <input type="radio" name="credit" value="lines" checked={lines} /> These lines
          </label>
        </div>
        {error && (
          <p class="error" id="credit-error">
            {error}
          </p>
        )}
      </fieldset>
      {/* The script hides the lines while "Everything" is chosen; without it they stay. */}
      <div data-credit-lines>
        <h4 id="credit-lines-heading">Lines to credit</h4>
        <LinesEditor
          state={form}
          labelledBy="credit-lines-heading"
          tax={props.taxed}
          unit={invoice.currency}
          hint={
            props.taxed
              ? "Used with “These lines”. Each line states one of the invoice's own tax rates and categories."
              : "Used with “These lines”. Priced like the invoice's lines."
          }
        />
      </div>
      <Field
        name="reason"
        label="Reason"
        state={form}
        required
        multiline
        hint="Printed on the credit note."
      />
      <button type="submit" name="_action" value="create" class="primary">
        Issue credit note…
      </button>
    </form>
  );
}
