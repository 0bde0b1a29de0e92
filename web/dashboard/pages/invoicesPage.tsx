import { invoiceRowMoney } from "../../../app/lists/invoiceRowMoney.ts";
import type { InvoiceListRow } from "../../../app/lists/merchantLists.ts";
import { reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { REPORTED_INVOICE_STATUSES } from "../../../domain/statuses.ts";
import { Badge, DashboardLayout } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { ExportForms } from "./exportForms.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";
import { usdc } from "./usdc.ts";

export function InvoicesPage(props: {
  session: Session;
  invoices: InvoiceListRow[];
  filter: { status: string; q: string };
  pager: PagerLinks;
  today: string;
}) {
  const query: Record<string, string> = {};
  if (props.filter.status) query.status = props.filter.status;
  if (props.filter.q) query.q = props.filter.q;
  return (
    <DashboardLayout title="Invoices" section="/dashboard/invoices" {...props.session}>
      <section class="card">
        <form method="get" action="/dashboard/invoices" class="filters">
          <div class="field">
            <label for="q">Search</label>
            <input
              id="q"
              name="q"
              type="search"
              value={props.filter.q}
              placeholder="Number, customer, email or line item"
            />
          </div>
          <div class="field">
            <label for="status">Status</label>
            <select id="status" name="status">
              <option value="">Any</option>
              {REPORTED_INVOICE_STATUSES.map((s) => (
                <option value={s} selected={s === props.filter.status}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div class="actions">
            <button type="submit">Filter</button>
            <a class="button" href="/dashboard/invoices/new">
              New invoice
            </a>
          </div>
        </form>
      </section>
      <section class="card">
        <DataTable
          rows={props.invoices}
          empty="No invoices match."
          caption="Your invoices, newest first"
          columns={[
            {
              label: "Number",
              href: (invoice) => `/dashboard/invoices/${invoice.id}`,
              cell: (invoice) => invoice.invoice_number,
            },
            {
              label: "Customer",
              cell: (invoice) => (
                <>
                  {invoice.vendor_name}
                  <br />
                  <span class="muted small">{invoice.vendor_email}</span>
                </>
              ),
            },
            { label: "Due", cell: (invoice) => invoice.due_date },
            {
              label: "Status",
              cell: (invoice) => (
                <Badge status={reportedStatus(invoice.status, invoice.due_date, props.today)} />
              ),
            },
            // Total, received and due in the invoice's currency; refunds always move USDC.
            {
              label: "Total",
              num: true,
              cell: (invoice) => formatAmountForDisplay(invoice.total_amount, invoice.currency),
            },
            {
              label: "Received",
              num: true,
              cell: (invoice) =>
                formatAmountForDisplay(invoiceRowMoney(invoice).paid, invoice.currency),
            },
            { label: "Refunded", num: true, cell: (invoice) => usdc(invoice.refunded) },
            {
              label: "Due",
              num: true,
              cell: (invoice) =>
                formatAmountForDisplay(invoiceRowMoney(invoice).due, invoice.currency),
            },
          ]}
        />
        <Pager base="/dashboard/invoices" query={query} links={props.pager} />
      </section>
      <ExportForms />
    </DashboardLayout>
  );
}
