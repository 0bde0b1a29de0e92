import type { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { type PaymentExportRow, paymentExportBatch } from "../../db/queries/exports.ts";
import { csvTime } from "../../domain/csv.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { Actor } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { csvExport, type ExportQuerySchema } from "./csvStream.ts";

/** Payments read per batch. */
const BATCH = 1000;

/** The columns: times UTC, named so (`_utc`); `vendor_name` the dashboard's "Customer". */
export const PAYMENTS_CSV_HEADER = [
  "paid_at_utc",
  "payment_id",
  "tx_hash",
  "log_index",
  "block_number",
  "explorer_url",
  "payer",
  "amount",
  "currency",
  "kind",
  "invoice_number",
  "invoice_id",
  "vendor_name",
  "link_slug",
  "link_description",
  "deposit_address",
  "entry",
  "refund_from",
  "refund_to",
  // Credit notes (issue 44), after the columns readers already know.
  "credit_note_number",
] as const;

function cells(row: PaymentExportRow, explorerUrl: string | null): string[] {
  return [
    csvTime(row.at),
    row.id,
    row.tx_hash ?? "",
    row.log_index === null ? "" : String(row.log_index),
    row.block_number === null ? "" : String(row.block_number),
    explorerUrl && row.tx_hash ? `${explorerUrl}/tx/${row.tx_hash}` : "",
    row.payer ? getAddress(row.payer) : "",
    formatUsdc(row.amount),
    "USDC",
    row.invoice_id ? "invoice" : "link",
    row.invoice_number ?? "",
    row.invoice_id ?? "",
    row.vendor_name ?? "",
    row.link_slug ?? "",
    row.link_description ?? "",
    getAddress(row.deposit_address),
    row.entry,
    row.refund_from ? getAddress(row.refund_from) : "",
    row.refund_to ? getAddress(row.refund_to) : "",
    row.credit_note_number ?? "",
  ];
}

/**
 * The payments CSV of the actor's own merchant for a validated query (the range checked against `params`):
 * GET /api/exports/payments.csv and the dashboard's export button.
 */
export async function paymentsCsv(
  deps: Pick<CoreDeps, "db" | "explorerUrl">,
  actor: Actor,
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
): Promise<Response> {
  return csvExport(deps.db, actor, params, query, {
    name: "payments",
    header: PAYMENTS_CSV_HEADER,
    readBatch: (merchantId, range, after) =>
      paymentExportBatch(deps.db, merchantId, range, after, BATCH),
    cellsOf: (row) => cells(row, deps.explorerUrl),
  });
}
