import { DashboardLayout } from "../layout.tsx";
import { Field, type FormState } from "./formFields.tsx";
import { BilledCards, FormHead, NotCreated, YouCard } from "./invoiceFormCards.tsx";
import type { Session } from "./pageSession.ts";

export function NewInvoicePage(props: { session: Session; state: FormState }) {
  const { state } = props;
  return (
    <DashboardLayout title="New invoice" section="/dashboard/invoices/new" {...props.session}>
      <NotCreated state={state} what="invoice" />
      <form method="post" action="/dashboard/invoices/new" id="invoice-form" novalidate>
        <FormHead session={props.session} state={state} create="Create invoice" />
        <BilledCards state={state} currency />
        <section class="card">
          <h2>Terms</h2>
          <div class="grid2">
            <Field
              name="issue_date"
              label="Issue date"
              type="date"
              state={state}
              hint="Today when empty."
            />
            <Field name="due_date" label="Due date" type="date" state={state} required />
          </div>
          <Field name="notes" label="Notes" state={state} multiline />
        </section>
        <YouCard state={state} sendLabel="Email the invoice to the customer now" />
        <button type="submit" class="primary" name="_action" value="create">
          Create invoice
        </button>
      </form>
    </DashboardLayout>
  );
}
