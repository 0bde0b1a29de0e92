import { createRoute, z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { type InvoiceExportRow, invoiceExportBatch } from "../../db/queries/exports.ts";
import { csvTime } from "../../domain/csv.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../domain/money.ts";
import { invoiceAmountDue } from "../../domain/moneyRules.ts";
import { requireKey } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, type Router } from "../openapi.ts";
import {
  csvHeaders,
  csvStream,
  ExportQuerySchema,
  exportFileNameOf,
  exportRange,
} from "./csvStream.ts";

/** Invoices read per batch (each with its line items, 30 at most). */
const BATCH = 500;

const HEADER = [
  "invoice_number",
  "invoice_id",
  "status",
  "issue_date",
  "due_date",
  "created_at",
  "sent_at",
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
] as const;

const route = createRoute({
  method: "get",
  path: "/api/exports/invoices.csv",
  tags: ["Exports"],
  summary: "Export your invoices as CSV",
  description:
    "One row per line item of every invoice created in the range, oldest first, with the invoice's fields repeated on each of its rows: `paid_amount` (counted payments), `amount_due` (0 once `paid` or `void`) and `refunded_amount` (confirmed refunds) are the figures `GET /api/invoices` shows (RFC 4180, UTF-8, CRLF; amounts as USDC decimals, times in UTC as `YYYY-MM-DD HH:MM:SS`, which spreadsheets read as dates; a UTF-8 byte order mark first unless `bom=false`; a cell beginning with `=`, `+`, `-`, `@`, a tab or CR gets a leading `'`). Streamed: any size in constant memory. A `read` key is enough.",
  security: [{ bearerAuth: [] }],
  request: { query: ExportQuerySchema },
  responses: {
    200: {
      description: "The CSV file",
      content: {
        "text/csv": {
          schema: z.string(),
          example: `${HEADER.join(",")}\r\nINV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,paid,2026-10-01,2026-10-31,2026-10-01 09:30:00,2026-10-01 09:30:00,Globex Corporation,ap@globex.example,1,Design work,2,75.00,150.00,150.125,150.125,0.00,0.00,USDC,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\r\n`,
        },
      },
    },
    ...errorResponses(400, 401),
  },
});

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
    formatUsdc(invoiceAmountDue(row.status, row.total_amount, row.received)),
    formatUsdc(row.refunded),
    "USDC",
    getAddress(row.deposit_address),
  ];
}

/**
 * The invoices CSV of `merchantId` for a validated query (the range checked against `params`):
 * GET /api/exports/invoices.csv and the dashboard's export button.
 */
export async function invoicesCsv(
  deps: Pick<AppDeps, "db">,
  merchantId: string,
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
): Promise<Response> {
  const range = exportRange(params, query);
  const today = utcToday();
  const body = csvStream(
    "invoices",
    HEADER,
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

export function registerExportInvoices(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) =>
    invoicesCsv(deps, requireKey(c).merchantId, c.req.query(), c.req.valid("query")),
  );
}
