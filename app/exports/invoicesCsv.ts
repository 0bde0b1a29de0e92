import type { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { type InvoiceExportRow, invoiceExportBatch } from "../../db/queries/exports.ts";
import { csvTime } from "../../domain/csv.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../domain/money.ts";
import { invoiceAmountDue } from "../../domain/moneyRules.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import {
  csvHeaders,
  csvStream,
  type ExportQuerySchema,
  exportFileNameOf,
  exportRange,
} from "./csvStream.ts";

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
] as const;

function cells(row: InvoiceExportRow, today: string): string[] {
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
    formatUsdc(row.received),
    formatUsdc(invoiceAmountDue(row.status, row.total_amount, row.received, row.credited_amount)),
    formatUsdc(row.refunded),
    "USDC",
    getAddress(row.deposit_address),
    // As JSON, on each line of the invoice; empty when it has none.
    Object.keys(row.metadata).length ? JSON.stringify(row.metadata) : "",
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
  const merchantId = ownMerchantId(actor.identity);
  const range = exportRange(params, query);
  const today = utcToday();
  const body = csvStream(
    "invoices",
    INVOICES_CSV_HEADER,
    (after) => invoiceExportBatch(deps.db, merchantId, range, after, BATCH),
    (row) => ({ at: row.list_at, id: row.id }),
    (row) => cells(row, today),
    query.bom !== "false",
  );
  return new Response(body, {
    status: 200,
    headers: csvHeaders(await exportFileNameOf(deps.db, merchantId, "invoices", query)),
  });
}
