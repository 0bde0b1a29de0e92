import type { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { type PaymentExportRow, paymentExportBatch } from "../../db/queries/exports.ts";
import { csvTime } from "../../domain/csv.ts";
import { formatUsdc } from "../../domain/money.ts";
import { formatRatio } from "../../domain/rates.ts";
import type { Actor } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { conversionsOfPayments, type PaymentConversion } from "../payments/paymentConversions.ts";
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
  // Prices in a currency, last: the invoice's or link's currency (empty for USDC), what a
  // payment counted for in it (a credit note's amount, already in it) and a payment's rate.
  "priced_in",
  "amount_in_currency",
  "rate",
] as const;

/** An export row with its conversion, for a payment to an owner priced in a currency. */
type ConvertedExportRow = PaymentExportRow & { conversion: PaymentConversion | null };

/** The currency columns: empty for an owner in USDC, and for a refund (USDC) the currency alone. */
function currencyCells(row: ConvertedExportRow): string[] {
  if (row.currency === "USDC") return ["", "", ""];
  if (row.entry === "credit_note") return [row.currency, formatUsdc(row.amount), ""];
  if (row.entry === "payment" && row.conversion)
    return [row.currency, formatUsdc(row.conversion.amount), formatRatio(row.conversion.rate)];
  return [row.currency, "", ""];
}

function cells(row: ConvertedExportRow, explorerUrl: string | null): string[] {
  return [
    csvTime(row.at),
    row.id,
    row.tx_hash ?? "",
    row.log_index === null ? "" : String(row.log_index),
    row.block_number === null ? "" : String(row.block_number),
    explorerUrl && row.tx_hash ? `${explorerUrl}/tx/${row.tx_hash}` : "",
    row.payer ? getAddress(row.payer) : "",
    formatUsdc(row.amount),
    // What `amount` is in: USDC moved, but a credit note is a document in its invoice's currency.
    row.entry === "credit_note" ? row.currency : "USDC",
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
    ...currencyCells(row),
  ];
}

/** A batch of the export, each payment to a currency-priced owner with its conversion. */
async function withConversions(
  db: CoreDeps["db"],
  rows: PaymentExportRow[],
): Promise<ConvertedExportRow[]> {
  const conversions = await conversionsOfPayments(
    db,
    rows.filter((r) => r.entry === "payment"),
  );
  return rows.map((row) => ({
    ...row,
    conversion: row.entry === "payment" ? (conversions.get(row.id) ?? null) : null,
  }));
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
    readBatch: async (merchantId, range, after) =>
      withConversions(deps.db, await paymentExportBatch(deps.db, merchantId, range, after, BATCH)),
    cellsOf: (row) => cells(row, deps.explorerUrl),
  });
}
