import type { Child } from "hono/jsx";
import type { PresentedCurrencyReport, PresentedReport } from "../../../app/reports/receivables.ts";
import type { Schedule } from "../../../app/schedules/schema.ts";
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import type { ReminderPolicy } from "../../../domain/reminders.ts";
import { Alert, Badge, Csrf, DashboardLayout } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import type { Session } from "./pageSession.ts";

/** The aging buckets' column titles, in the report's order. */
const BUCKETS = [
  ["current", "Not yet due"],
  ["1_30", "1–30 days"],
  ["31_60", "31–60 days"],
  ["61_90", "61–90 days"],
  ["over_90", "Over 90 days"],
] as const;

/**
 * One row of the aging table, a customer's or the totals': its invoices, what each bucket owes
 * and the total (`data-vendor` and `data-bucket` are what the tests read).
 */
const AgingRow = (props: {
  id: string;
  customer: Child;
  figures: Pick<PresentedReport, "invoice_count" | "total"> & {
    buckets: PresentedReport["totals"];
  };
}) => (
  <tr data-vendor={props.id}>
    <td data-label="Customer">{props.customer}</td>
    <td data-label="Invoices">{props.figures.invoice_count}</td>
    {BUCKETS.map(([bucket, title]) => (
      <td data-label={title} class="num" data-bucket={bucket}>
        {formatUsdcForDisplay(props.figures.buckets[bucket])}
      </td>
    ))}
    <td data-label="Total" class="num" data-bucket="total">
      <strong>{formatUsdcForDisplay(props.figures.total)}</strong>
    </td>
  </tr>
);

/**
 * One currency's aging table: its customers and its totals, every amount in its currency (the
 * USDC one is `data-table="receivables"`, another `receivables-eur`, …).
 */
const AgingTable = (props: { report: PresentedCurrencyReport }) => {
  const { report } = props;
  const table =
    report.currency === "USDC" ? "receivables" : `receivables-${report.currency.toLowerCase()}`;
  return (
    <div class="tablewrap">
      <table class="responsive" data-table={table}>
        <caption>{report.currency} owed, by customer</caption>
        <thead>
          <tr>
            <th scope="col">Customer</th>
            <th scope="col">Invoices</th>
            {BUCKETS.map(([, title]) => (
              <th scope="col" class="num">
                {title}
              </th>
            ))}
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {report.vendors.map((vendor) => (
            <AgingRow
              id={vendor.vendor_email}
              customer={
                <>
                  {vendor.vendor_name}
                  <br />
                  <span class="small muted">{vendor.vendor_email}</span>
                </>
              }
              figures={vendor}
            />
          ))}
          {/* The totals as a last row of the body: a phone stacks it as the others. */}
          <AgingRow
            id="total"
            customer={<strong>Total</strong>}
            figures={{ ...report, buckets: report.totals }}
          />
        </tbody>
      </table>
    </div>
  );
};

/** The aged receivables: what open invoices still owe, by vendor and bucket, with the totals. */
export function ReceivablesPage(props: { session: Session; report: PresentedReport }) {
  const { report } = props;
  return (
    <DashboardLayout title="Receivables" section="/dashboard/receivables" {...props.session}>
      <section class="card">
        <h2>Aged receivables</h2>
        <p>
          What your open invoices still owe (after partial payments), by customer and by days past
          the due date, as of <strong data-figure="as-of">{report.as_of}</strong> (UTC).{" "}
          <a href="/dashboard/exports/receivables.csv">Download as CSV</a> (the customer in{" "}
          <code>vendor_name</code> and <code>vendor_email</code>, the API's names).
        </p>
        {report.vendors.length === 0 && !report.other_currencies?.length ? (
          <p class="muted">Nothing is owed to you.</p>
        ) : (
          [report, ...(report.other_currencies ?? [])]
            .filter((r) => r.vendors.length > 0)
            .map((r) => <AgingTable report={r} />)
        )}
      </section>
    </DashboardLayout>
  );
}

/** How often, in words. */
/** How often, in words: "Monthly", "Every 10 days". */
export const every = (s: Pick<Schedule, "interval" | "n">) =>
  s.interval === "every_n_days"
    ? `Every ${s.n} days`
    : s.interval[0]?.toUpperCase() + s.interval.slice(1);

const STATUS_NOTICES: Record<string, string> = {
  created:
    "The schedule is created: each period's invoice is issued on its date (one whose date has passed, within a minute).",
  paused: "The schedule is paused: nothing is issued until you resume it.",
  resumed: "The schedule is active again.",
  cancelled: "The schedule is cancelled: nothing more is issued.",
  run: "An invoice was issued now.",
  saved: "The schedule is changed: the invoices not yet issued follow it.",
};

/** The merchant's invoice schedules, newest first. */
export function SchedulesPage(props: {
  session: Session;
  schedules: Schedule[];
  older: string | null;
}) {
  return (
    <DashboardLayout title="Schedules" section="/dashboard/schedules" {...props.session}>
      <section class="card">
        <h2>Invoice schedules</h2>
        <p>
          A schedule issues the same invoice on a calendar (weekly, monthly, every N days…), each an
          ordinary invoice: numbered, emailed, payable.{" "}
          <a href="/dashboard/schedules/new">New schedule</a> (or{" "}
          <code>POST /api/invoice-schedules</code>, see the <a href="/docs">API reference</a>).
        </p>
        <DataTable
          rows={props.schedules}
          empty="You have no schedules yet."
          caption="Your schedules"
          rowAttributes={(s) => ({ "data-schedule": s.schedule_id })}
          columns={[
            {
              label: "Customer",
              href: (s) => `/dashboard/schedules/${s.schedule_id}`,
              cell: (s) => String(s.invoice.vendor_name ?? s.invoice.vendor_email),
            },
            { label: "How often", cell: (s) => every(s) },
            { label: "Status", cell: (s) => <Badge status={s.status} /> },
            { label: "Next invoice", cell: (s) => s.next_issue_date ?? "—" },
            { label: "Issued", cell: (s) => s.issued_count },
          ]}
        />
        {props.older && (
          <nav class="pager" aria-label="Pages">
            <a href={`/dashboard/schedules?cursor=${encodeURIComponent(props.older)}`}>Next →</a>
          </nav>
        )}
      </section>
    </DashboardLayout>
  );
}

/** One schedule: its calendar, status, the invoices it issued, and its buttons. */
export function SchedulePage(props: {
  session: Session;
  schedule: Schedule;
  invoices: { id: string; invoice_number: string; schedule_period: string | null }[];
  notice?: string;
  problem?: string;
}) {
  const s = props.schedule;
  const action = (verb: string, label: string, primary = false) => (
    <form method="post" action={`/dashboard/schedules/${s.schedule_id}/${verb}`} class="inline">
      <Csrf token={props.session.csrf} />
      <button type="submit" class={primary ? "primary" : undefined}>
        {label}
      </button>
    </form>
  );
  const live = s.status === "active" || s.status === "paused";
  return (
    <DashboardLayout title="Schedule" section="/dashboard/schedules" {...props.session}>
      {props.notice && STATUS_NOTICES[props.notice] && (
        <Alert tone="ok">{STATUS_NOTICES[props.notice]}</Alert>
      )}
      {props.problem && <Alert tone="bad">{props.problem}</Alert>}
      <section class="card">
        <h2>
          {String(s.invoice.vendor_name ?? s.invoice.vendor_email)} <Badge status={s.status} />
        </h2>
        <dl class="facts">
          <dt>How often</dt>
          <dd>{every(s)}</dd>
          <dt>Next invoice</dt>
          <dd data-figure="next-issue-date">{s.next_issue_date ?? "—"}</dd>
          <dt>From</dt>
          <dd>{s.start_date}</dd>
          <dt>Until</dt>
          <dd>{s.end_date ?? (s.count === null ? "No end" : `${s.count} invoices`)}</dd>
          <dt>Priced in</dt>
          <dd data-figure="currency">{s.currency}</dd>
          <dt>Due</dt>
          <dd>{s.days_until_due} days after issue</dd>
          <dt>Issued so far</dt>
          <dd data-figure="issued-count">{s.issued_count}</dd>
          {s.last_error && (
            <>
              <dt>Paused because</dt>
              <dd>{s.last_error}</dd>
            </>
          )}
        </dl>
        {s.status !== "cancelled" && (
          <div class="actions">
            {live && action("run", "Issue the next invoice now", true)}
            {live &&
              (s.status === "active" ? action("pause", "Pause") : action("resume", "Resume"))}
            <a class="button" href={`/dashboard/schedules/${s.schedule_id}/edit`}>
              Change
            </a>
            {live && action("cancel", "Cancel schedule")}
          </div>
        )}
      </section>
      <section class="card">
        <h2>Invoices issued</h2>
        {props.invoices.length === 0 ? (
          <p class="muted">None yet.</p>
        ) : (
          <ul data-list="schedule-invoices">
            {props.invoices.map((invoice) => (
              <li>
                <a href={`/dashboard/invoices/${invoice.id}`}>{invoice.invoice_number}</a>
                {invoice.schedule_period && (
                  <span class="muted"> — period of {invoice.schedule_period}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </DashboardLayout>
  );
}

/** The payment reminders' policy: on or off, each step, the cap per invoice. */
export function RemindersPage(props: {
  session: Session;
  policy: ReminderPolicy;
  notice?: string;
  problem?: string;
}) {
  const { policy } = props;
  const when = (days: number) =>
    days === 0
      ? "On the due date"
      : days < 0
        ? `${-days} day${days === -1 ? "" : "s"} before the due date`
        : `${days} day${days === 1 ? "" : "s"} after the due date`;
  return (
    <DashboardLayout title="Reminders" section="/dashboard/settings" {...props.session}>
      {props.notice === "saved" && <Alert tone="ok">Your reminder policy is saved.</Alert>}
      {props.problem && <Alert tone="bad">{props.problem}</Alert>}
      <section class="card">
        <h2>Payment reminders</h2>
        <p>
          Your customers are emailed a reminder (the invoice link, what is still due, the PDF) for
          each open invoice on the days checked below.
        </p>
        <form method="post" action="/dashboard/reminders">
          <Csrf token={props.session.csrf} />
          <div class="field">
            <label>
              <input type="checkbox" name="enabled" value="on" checked={policy.enabled} /> Send
              automatic reminders
            </label>
          </div>
          <fieldset>
            <legend>When</legend>
            {policy.steps.map((step) => (
              <div class="field">
                <label>
                  <input
                    type="checkbox"
                    name={`step_${step.days}`}
                    value="on"
                    checked={step.enabled}
                  />{" "}
                  {when(step.days)}
                </label>
              </div>
            ))}
          </fieldset>
          <div class="field">
            <label for="max_reminders">At most this many reminders per invoice</label>
            <input
              id="max_reminders"
              name="max_reminders"
              type="number"
              min="0"
              max="20"
              value={String(policy.max_reminders)}
            />
          </div>
          <button type="submit" class="primary">
            Save
          </button>
        </form>
      </section>
    </DashboardLayout>
  );
}
