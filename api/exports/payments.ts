import { createRoute, z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { type PaymentExportRow, paymentExportBatch } from "../../db/queries/exports.ts";
import { csvTime } from "../../domain/csv.ts";
import { formatUsdc } from "../../domain/money.ts";
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

/** Payments read per batch. */
const BATCH = 1000;

const HEADER = [
  "paid_at",
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
] as const;

const route = createRoute({
  method: "get",
  path: "/api/exports/payments.csv",
  tags: ["Exports"],
  summary: "Export your payments as CSV",
  description:
    "One row per counted USDC payment with a block time in the range, and per refund confirmed in the range (money that left: a requested, submitted or failed refund moved nothing), oldest first, with what it was for (an invoice or a payment link) and the transaction on the block explorer (`EXPLORER_URL`: basescan.org on Base; empty on a local chain, whose transactions no explorer knows). `entry` says which it is: a `payment` row has the payer, log index and block; a `refund` row has the refund's id in `payment_id`, its transaction, and `refund_from`/`refund_to`. `amount` is always positive (a leading `-` would be escaped like a formula): what the merchant kept is the sum of the `payment` rows less the sum of the `refund` rows. RFC 4180 like the invoices export, streamed. A `read` key is enough.",
  security: [{ bearerAuth: [] }],
  request: { query: ExportQuerySchema },
  responses: {
    200: {
      description: "The CSV file",
      content: {
        "text/csv": {
          schema: z.string(),
          example: `${HEADER.join(",")}\r\n2026-10-02 14:05:11,0x5e1f…-3,0x5e1f…,3,24118307,https://basescan.org/tx/0x5e1f…,0x70997970C51812dc3A010C7d01b50e0d17dc79C8,150.125,USDC,invoice,INV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,Globex Corporation,,,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,payment,,\r\n2026-10-03 10:00:00,3f0a9e1c-7b2d-4c5e-8f6a-1b2c3d4e5f60,0x9a4c…,,,https://basescan.org/tx/0x9a4c…,,25.00,USDC,invoice,INV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,Globex Corporation,,,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,refund,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,0x70997970C51812dc3A010C7d01b50e0d17dc79C8\r\n`,
        },
      },
    },
    ...errorResponses(400, 401),
  },
});

function cells(row: PaymentExportRow, explorerUrl: string | null): string[] {
  return [
    csvTime(row.at),
    row.id,
    row.tx_hash,
    row.log_index === null ? "" : String(row.log_index),
    row.block_number === null ? "" : String(row.block_number),
    explorerUrl ? `${explorerUrl}/tx/${row.tx_hash}` : "",
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
  ];
}

/**
 * The payments CSV of `merchantId` for a validated query (the range checked against `params`):
 * GET /api/exports/payments.csv and the dashboard's export button.
 */
export async function paymentsCsv(
  deps: Pick<AppDeps, "db" | "explorerUrl">,
  merchantId: string,
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
): Promise<Response> {
  const range = exportRange(params, query);
  const body = csvStream(
    "payments",
    HEADER,
    (after) => paymentExportBatch(deps.db, merchantId, range, after, BATCH),
    (row) => ({ at: row.list_at, id: row.id }),
    (row) => cells(row, deps.explorerUrl),
    query.bom !== "false",
  );
  return new Response(body, {
    status: 200,
    headers: csvHeaders(await exportFileNameOf(deps.db, merchantId, "payments", query)),
  });
}

export function registerExportPayments(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) =>
    paymentsCsv(deps, requireKey(c).merchantId, c.req.query(), c.req.valid("query")),
  );
}
