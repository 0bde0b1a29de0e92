import { getAddress } from "viem";
import type {
  InvoiceListRow,
  LinkListRow,
  PaymentListRow,
} from "../../../app/lists/merchantLists.ts";
import { reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import { invoiceAmountDue, type Overview } from "../../../domain/moneyRules.ts";
import { REPORTED_INVOICE_STATUSES } from "../../../domain/statuses.ts";
import { Badge, DashboardLayout, Time } from "../layout.tsx";

export type Session = { email: string; csrf: string };

const usdc = (units: bigint) => `${formatUsdcForDisplay(units)} USDC`;

/** An address as the public pages show it (EIP-55 checksummed); as stored if it is none. */
export const checksummed = (address: string): string => {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
};

/**
 * A hex value: an address whole (someone compares it), a longer one (a 66-character hash)
 * shortened so tables do not wrap, the whole in its title and for screen readers; a copy
 * button (the dashboard's script shows it) copies the whole.
 */
export function Hash(props: { value: string; href?: string }) {
  const { value } = props;
  const short = value.length > 42 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
  const text =
    short === value ? (
      value
    ) : (
      <>
        <span aria-hidden="true">{short}</span>
        <span class="sr-only">{value}</span>
      </>
    );
  return (
    <span class="hash">
      {props.href ? (
        <a class="mono" href={props.href} rel="noreferrer" title={value}>
          {text}
        </a>
      ) : (
        <code title={value}>{text}</code>
      )}
      {short !== value && (
        <button type="button" class="copy" data-copy={value} hidden>
          Copy
        </button>
      )}
    </span>
  );
}

/** A transaction hash, linked to the explorer when there is one. */
export const TxLink = (props: { hash: string; explorerUrl: string | null }) => (
  <Hash
    value={props.hash}
    {...(props.explorerUrl ? { href: `${props.explorerUrl}/tx/${props.hash}` } : {})}
  />
);

/** The query strings of the pages before and after the one shown (web/dashboard/paging.ts). */
export type PagerLinks = {
  older: Record<string, string> | null;
  newer: Record<string, string> | null;
};

function PaymentsTable(props: {
  payments: PaymentListRow[];
  explorerUrl: string | null;
  caption: string;
}) {
  if (props.payments.length === 0) return <p class="muted">No payments yet.</p>;
  return (
    <div class="tablewrap">
      <table class="responsive">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Paid</th>
            <th scope="col">For</th>
            <th scope="col">From</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Transaction</th>
          </tr>
        </thead>
        <tbody>
          {props.payments.map((p) => (
            <tr>
              <td data-label="Paid">
                <Time at={p.block_time} />
              </td>
              <td data-label="For">
                {p.invoice_id ? (
                  <a href={`/dashboard/invoices/${p.invoice_id}`}>{p.invoice_number}</a>
                ) : (
                  <a href={`/dashboard/links/${p.link_slug}`}>{p.link_description}</a>
                )}
              </td>
              <td data-label="From">
                <code>{getAddress(p.payer)}</code>
              </td>
              <td data-label="Amount" class="num">
                {usdc(p.amount)}
              </td>
              <td data-label="Transaction">
                <TxLink hash={p.tx_hash} explorerUrl={props.explorerUrl} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function OverviewPage(props: {
  session: Session;
  overview: Overview;
  recent: PaymentListRow[];
  explorerUrl: string | null;
}) {
  const { overview } = props;
  return (
    <DashboardLayout title="Overview" section="/dashboard" {...props.session}>
      <section class="stats" aria-label="Figures">
        <div class="stat">
          <div class="label">Received this month</div>
          <div class="value" data-figure="received">
            {usdc(overview.receivedThisMonth)}
          </div>
        </div>
        <div class="stat">
          <div class="label">Refunded this month</div>
          <div class="value" data-figure="refunded">
            {usdc(overview.refundedThisMonth)}
          </div>
        </div>
        <div class="stat">
          <div class="label">Net this month</div>
          <div class="value" data-figure="net">
            {usdc(overview.netThisMonth)}
          </div>
        </div>
        <div class="stat">
          <div class="label">Outstanding ({overview.outstandingCount} invoices)</div>
          <div class="value" data-figure="outstanding">
            {usdc(overview.outstanding)}
          </div>
        </div>
        <div class="stat">
          <div class="label">
            <a href="/dashboard/invoices?status=overdue">Overdue</a> ({overview.overdueCount}{" "}
            invoices)
          </div>
          <div class="value" data-figure="overdue">
            {usdc(overview.overdue)}
          </div>
        </div>
      </section>
      <section class="card">
        <h2>Recent payments</h2>
        <PaymentsTable
          payments={props.recent}
          explorerUrl={props.explorerUrl}
          caption="The latest payments to your invoices and links"
        />
        <p class="small">
          <a href="/dashboard/payments">All payments</a>
        </p>
      </section>
    </DashboardLayout>
  );
}

/** Newer/older links (keyset cursors, as the API's lists) keeping the filters. */
export function Pager(props: { base: string; query: Record<string, string>; links: PagerLinks }) {
  const href = (page: Record<string, string>) => {
    const text = new URLSearchParams({ ...props.query, ...page }).toString();
    return text ? `${props.base}?${text}` : props.base;
  };
  const { older, newer } = props.links;
  if (!older && !newer) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {newer && <a href={href(newer)}>← Newer</a>}
      {older && <a href={href(older)}>Next →</a>}
    </nav>
  );
}

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
        {props.invoices.length === 0 ? (
          <p class="muted">No invoices match.</p>
        ) : (
          <div class="tablewrap">
            <table class="responsive">
              <caption>Your invoices, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Due</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Total
                  </th>
                  <th scope="col" class="num">
                    Received
                  </th>
                  <th scope="col" class="num">
                    Refunded
                  </th>
                  <th scope="col" class="num">
                    Due
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.invoices.map((invoice) => (
                  <tr>
                    <td data-label="Number">
                      <a href={`/dashboard/invoices/${invoice.id}`}>{invoice.invoice_number}</a>
                    </td>
                    <td data-label="Customer">
                      {invoice.vendor_name}
                      <br />
                      <span class="muted small">{invoice.vendor_email}</span>
                    </td>
                    <td data-label="Due">{invoice.due_date}</td>
                    <td data-label="Status">
                      <Badge
                        status={reportedStatus(invoice.status, invoice.due_date, props.today)}
                      />
                    </td>
                    <td data-label="Total" class="num">
                      {usdc(invoice.total_amount)}
                    </td>
                    <td data-label="Received" class="num">
                      {usdc(invoice.received)}
                    </td>
                    <td data-label="Refunded" class="num">
                      {usdc(invoice.refunded)}
                    </td>
                    <td data-label="Due" class="num">
                      {usdc(
                        invoiceAmountDue(invoice.status, invoice.total_amount, invoice.received),
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager base="/dashboard/invoices" query={query} links={props.pager} />
      </section>
      <ExportForms />
    </DashboardLayout>
  );
}

/** The accountants' exports (CSV, the API's own), for a date range. */
export function ExportForms() {
  const form = (what: "invoices" | "payments", label: string) => (
    <form method="get" action={`/dashboard/exports/${what}.csv`} class="filters">
      <div class="field">
        <label for={`${what}-from`}>From</label>
        <input id={`${what}-from`} name="from" type="date" />
      </div>
      <div class="field">
        <label for={`${what}-to`}>To</label>
        <input id={`${what}-to`} name="to" type="date" />
      </div>
      <button type="submit">{label}</button>
    </form>
  );
  return (
    <section class="card">
      <h2>Exports for your accountant</h2>
      <p class="muted small">
        CSV, one row per invoice line or per payment; empty dates: everything.
      </p>
      {form("invoices", "Export invoices (CSV)")}
      <p />
      {form("payments", "Export payments (CSV)")}
    </section>
  );
}

export function PaymentsPage(props: {
  session: Session;
  payments: PaymentListRow[];
  pager: PagerLinks;
  explorerUrl: string | null;
}) {
  return (
    <DashboardLayout title="Payments" section="/dashboard/payments" {...props.session}>
      <section class="card">
        <PaymentsTable
          payments={props.payments}
          explorerUrl={props.explorerUrl}
          caption="Every payment counted on your invoices and links, newest first"
        />
        <Pager base="/dashboard/payments" query={{}} links={props.pager} />
      </section>
      <ExportForms />
    </DashboardLayout>
  );
}

export function LinksPage(props: { session: Session; links: LinkListRow[]; pager: PagerLinks }) {
  return (
    <DashboardLayout title="Payment links" section="/dashboard/links" {...props.session}>
      <p>
        <a class="button" href="/dashboard/links/new">
          New payment link
        </a>
      </p>
      <section class="card">
        {props.links.length === 0 ? (
          <p class="muted">No payment links yet.</p>
        ) : (
          <div class="tablewrap">
            <table class="responsive">
              <caption>Your payment links, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col">Created</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                  <th scope="col" class="num">
                    Received
                  </th>
                  <th scope="col" class="num">
                    Refunded
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.links.map((link) => (
                  <tr>
                    <td data-label="Description">
                      <a href={`/dashboard/links/${link.slug}`}>{link.description}</a>
                    </td>
                    <td data-label="Created">
                      <Time at={link.created_at} />
                    </td>
                    <td data-label="Status">
                      <Badge status={link.status} />
                    </td>
                    <td data-label="Amount" class="num">
                      {usdc(link.amount)}
                    </td>
                    <td data-label="Received" class="num">
                      {usdc(link.received)}
                    </td>
                    <td data-label="Refunded" class="num">
                      {usdc(link.refunded)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager base="/dashboard/links" query={{}} links={props.pager} />
      </section>
    </DashboardLayout>
  );
}
