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
        CSV, one row per invoice line or per payment; empty dates: everything. Times are UTC
        (columns ending <code>_utc</code>); the customer is in <code>vendor_name</code> and{" "}
        <code>vendor_email</code>, the API's names.
      </p>
      {form("invoices", "Export invoices (CSV)")}
      <p />
      {form("payments", "Export payments (CSV)")}
    </section>
  );
}
