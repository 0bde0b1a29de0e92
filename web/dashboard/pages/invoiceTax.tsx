import type { LineItemRow } from "../../../app/invoices/invoiceDetail.ts";
import {
  type InvoiceTaxView,
  invoiceTaxView,
  storedLineTax,
} from "../../../domain/invoiceTaxView.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { type LineTax, TAX_CATEGORY_NAMES, type TaxCategory } from "../../../domain/tax.ts";
import { DataTable } from "./dataTable.tsx";

/**
 * An invoice's tax on its page: derived from its stored lines by the rule the API's detail and
 * the PDF read (domain/invoiceTaxView.ts); null for an invoice without tax, whose page is the
 * spec's.
 */
export const taxOfInvoice = (
  invoice: Parameters<typeof invoiceTaxView>[0],
  lines: readonly LineItemRow[],
): InvoiceTaxView | null =>
  invoiceTaxView(
    invoice,
    lines.map((line) => ({ lineTotal: line.line_total, tax: storedLineTax(line) })),
  );

/** "19 %", "0 %"; none for a category without a rate (O). */
const percent = (rate: string | null) => (rate === null ? "" : `${rate} %`);

/** A line's tax as its row shows it: "19 % · S", "0 % · AE", "O". */
export function lineTaxLabel(line: LineItemRow): string {
  const tax: LineTax | null = storedLineTax(line);
  if (!tax) return "";
  return [percent(tax.rate?.text ?? null), tax.category].filter(Boolean).join(" · ");
}

/**
 * The tax card: both parties' tax IDs and countries, the breakdown per category and rate (what
 * each was charged on, and its tax), and the wording of each category that charges none.
 */
export function InvoiceTaxCard(props: { view: InvoiceTaxView; unit: string }) {
  const amount = (units: bigint) => formatAmountForDisplay(units, props.unit);
  const { view } = props;
  // A category's standard wording ("Reverse charge") is its name in the breakdown already; one
  // reason given for several categories is said once, naming them.
  const exemptions = new Map<string, TaxCategory[]>();
  for (const row of view.breakdown)
    if (row.exemption && row.exemption.text !== TAX_CATEGORY_NAMES[row.category])
      exemptions.set(row.exemption.text, [
        ...(exemptions.get(row.exemption.text) ?? []),
        row.category,
      ]);
  return (
    <section class="card" aria-labelledby="tax">
      <h2 id="tax">Tax</h2>
      <dl class="facts">
        <dt>Your tax ID</dt>
        <dd data-figure="merchant-tax-id">
          {view.merchantTaxId ?? "—"}
          {view.merchantCountry && ` (${view.merchantCountry})`}
        </dd>
        <dt>Customer's tax ID</dt>
        <dd data-figure="vendor-tax-id">
          {view.vendorTaxId ?? "—"}
          {view.vendorCountry && ` (${view.vendorCountry})`}
        </dd>
      </dl>
      <DataTable
        rows={view.breakdown}
        caption="Tax breakdown"
        rowAttributes={(row) => ({ "data-tax-row": `${row.category}:${row.rate ?? ""}` })}
        columns={[
          {
            label: "Category",
            cell: (row) => `${row.category} · ${TAX_CATEGORY_NAMES[row.category]}`,
          },
          { label: "Rate", num: true, cell: (row) => percent(row.rate) || "—" },
          { label: "Taxable amount", num: true, cell: (row) => amount(row.taxableAmount) },
          { label: "Tax", num: true, cell: (row) => amount(row.taxAmount) },
        ]}
      />
      {[...exemptions].map(([text, categories]) => (
        <p class="small" data-exemption={categories.join(" ")}>
          <strong>{categories.map((category) => TAX_CATEGORY_NAMES[category]).join(", ")}:</strong>{" "}
          {text}
        </p>
      ))}
    </section>
  );
}
