import { ExportQuerySchema } from "../../app/exports/csvStream.ts";
import { INVOICES_CSV_HEADER, invoicesCsv } from "../../app/exports/invoicesCsv.ts";
import { requireKey } from "../auth/authorize.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { listRoute } from "../lists/listRoute.ts";
import { csvResponse, type Router } from "../openapi.ts";

const route = listRoute({
  path: "/api/exports/invoices.csv",
  tags: ["Exports"],
  summary: "Export your invoices as CSV",
  description:
    "One row per line item of every invoice created in the range, oldest first, with the invoice's fields repeated on each of its rows: `paid_amount` (counted payments), `amount_due` (0 once `paid` or `void`) and `refunded_amount` (confirmed refunds) are the figures `GET /api/invoices` shows; the last columns are the tax: each line's `tax_category` and `tax_rate`, the invoice's `subtotal_amount` and `tax_amount` (those of `GET /api/invoices/{id}`; without tax, the total and `0.00`) and the parties' tax fields, then `credited_amount` and `paid_amount_usdc`. An invoice priced in a currency: `currency` says which, and its amounts are in it (`paid_amount` what its payments counted for) but `refunded_amount` and `paid_amount_usdc`, which are USDC (RFC 4180, UTF-8, CRLF; amounts as decimals, times in UTC as `YYYY-MM-DD HH:MM:SS`, which spreadsheets read as dates; a UTF-8 byte order mark first unless `bom=false`; a cell beginning with `=`, `+`, `-`, `@`, a tab or CR gets a leading `'`). Streamed: any size in constant memory. A `read` key is enough.",
  query: ExportQuerySchema,
  response: csvResponse(
    `${INVOICES_CSV_HEADER.join(",")}\r\nINV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,paid,2026-10-01,2026-10-31,2026-10-01 09:30:00,2026-10-01 09:30:00,Globex Corporation,ap@globex.example,1,Design work,2,75.00,150.00,178.50,178.50,0.00,0.00,USDC,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,,S,19,150.00,28.50,DE123456789,,DE,FR,,0.00,178.50\r\n`,
  ),
});

export function registerExportInvoices(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    // A key's merchant's own invoices (app/ takes the merchant from the actor).
    requireKey(c);
    return invoicesCsv(deps, actorOf(c), c.req.query(), c.req.valid("query"));
  });
}
