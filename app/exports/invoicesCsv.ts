import type { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { type InvoiceExportRow, invoiceExportBatch } from "../../db/queries/exports.ts";
import { csvTime } from "../../domain/csv.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { invoiceTaxView, storedLineTax } from "../../domain/invoiceTaxView.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { Actor } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { invoiceRowMoney } from "../lists/invoiceRowMoney.ts";
import { csvExport, type ExportQuerySchema } from "./csvStream.ts";

/** Invoices read per batch (each with its line items, 30 at most). */
const BATCH = 500;

/**
 * The columns. Times are UTC, and their names say so (`_utc`); the customer is `vendor_*`, the
 * specification's name for it (its invoice fields `vendor_name`, `vendor_email`), which the
 * dashboard calls "Customer" (docs/api.md, "Exports for accountants").
 */
export const INVOICES_CSV_HEADER = [
  "invoice_number",
  "invoice_id",
  "status",
  "issue_date",
  "due_date",
  "created_at_utc",
  "sent_at_utc",
  "vendor_name",
  "vendor_email",
  "line",
  "description",
  "quantity",
  "unit_price",
  "line_total",
  "invoice_total",
  "paid_amount",
  "amount_due",
  "refunded_amount",
  "currency",
  "deposit_address",
  "metadata",
  // Tax (added at the end, so a reader of the columns above is unaffected).
  "tax_category",
  "tax_rate",
  "subtotal_amount",
  "tax_amount",
  "merchant_tax_id",
  "vendor_tax_id",
  "merchant_country",
  "vendor_country",
  "tax_exemption_reason",
  // Credit notes (after the tax columns, for the same reason): the sum of the invoice's.
  "credited_amount",
  // Prices in a currency (after the others): the counted payments in USDC, what arrived. The
  // amounts before are in `currency` (the refunds, always USDC, excepted).
  "paid_amount_usdc",
] as const;

/** A row with its invoice's subtotal and tax, derived from all of the invoice's lines. */
type TaxedExportRow = InvoiceExportRow & { subtotal: bigint; tax: bigint };

/**
 * The batch's rows with their invoice's subtotal and tax (domain/invoiceTaxView.ts, the rule
 * the API's detail and the PDF read). A batch never splits an invoice, so its rows hold every
 * line. An invoice without tax: its subtotal is its total and its tax 0, so the columns always
 * sum.
 */
export function withInvoiceTax(rows: readonly InvoiceExportRow[]): TaxedExportRow[] {
  const byInvoice = new Map<string, InvoiceExportRow[]>();
  for (const row of rows) byInvoice.set(row.id, [...(byInvoice.get(row.id) ?? []), row]);
  const totals = new Map<string, { subtotal: bigint; tax: bigint }>();
  for (const [id, lines] of byInvoice) {
    const [first] = lines as [InvoiceExportRow];
    const view = invoiceTaxView(
      first,
      lines.map((line) => ({ lineTotal: line.line_total, tax: storedLineTax(line) })),
    );
    totals.set(id, view ?? { subtotal: first.total_amount, tax: 0n });
  }
  return rows.map((row) => {
    const { subtotal, tax } = totals.get(row.id) ?? { subtotal: row.total_amount, tax: 0n };
    return { ...row, subtotal, tax };
  });
}

function cells(row: TaxedExportRow, today: string): string[] {
  const money = invoiceRowMoney(row);
  return [
    row.invoice_number,
    row.id,
    reportedStatus(row.status, row.due_date, today),
    row.issue_date,
    row.due_date,
    csvTime(row.created_at),
    row.sent_at ? csvTime(row.sent_at) : "",
    row.vendor_name,
    row.vendor_email,
    String(row.position + 1),
    row.description,
    row.quantity,
    formatUsdc(row.unit_price),
    formatUsdc(row.line_total),
    formatUsdc(row.total_amount),
    formatUsdc(money.paid),
    formatUsdc(money.due),
    formatUsdc(row.refunded),
    row.currency,
    getAddress(row.deposit_address),
    // As JSON, on each line of the invoice; empty when it has none.
    Object.keys(row.metadata).length ? JSON.stringify(row.metadata) : "",
    row.tax_category ?? "",
    row.tax_rate ?? "",
    formatUsdc(row.subtotal),
    formatUsdc(row.tax),
    row.merchant_tax_id ?? "",
    row.vendor_tax_id ?? "",
    row.merchant_country ?? "",
    row.vendor_country ?? "",
    row.tax_exemption_reason ?? "",
    formatUsdc(row.credited_amount),
    formatUsdc(money.paidUsdc),
  ];
}

/**
 * The invoices CSV of the actor's own merchant for a validated query (the range checked against `params`):
 * GET /api/exports/invoices.csv and the dashboard's export button.
 */
export async function invoicesCsv(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
): Promise<Response> {
  const today = utcToday();
  return csvExport(deps.db, actor, params, query, {
    name: "invoices",
    header: INVOICES_CSV_HEADER,
    readBatch: async (merchantId, range, after) =>
      withInvoiceTax(await invoiceExportBatch(deps.db, merchantId, range, after, BATCH)),
    cellsOf: (row) => cells(row, today),
  });
}
