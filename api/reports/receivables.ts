import { createRoute, z } from "@hono/zod-openapi";
import { csvHeaders } from "../../app/exports/csvStream.ts";
import { assertKnownParams } from "../../app/lists/listQuery.ts";
import { systemClock } from "../../db/clock.ts";
import { openInvoicesOf } from "../../db/queries/receivables.ts";
import { CSV_BOM, csvRow } from "../../domain/csv.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  AGING_BUCKETS,
  agedReceivables,
  type Buckets,
  type ReceivablesReport,
} from "../../domain/receivables.ts";
import { requireKey } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";

const BucketsSchema = z
  .object(
    Object.fromEntries(AGING_BUCKETS.map((b) => [b, z.string()])) as Record<
      (typeof AGING_BUCKETS)[number],
      z.ZodString
    >,
  )
  .openapi("ReceivablesBuckets", {
    description:
      "USDC still due by days past the due date: `current` (not yet past it, the due date itself included), `1_30`, `31_60`, `61_90`, `over_90`.",
  });

const example = {
  as_of: "2027-04-15",
  currency: "USDC" as const,
  vendors: [
    {
      vendor_email: "ap@globex.example",
      vendor_name: "Globex",
      invoice_count: 2,
      buckets: {
        current: "0.00",
        "1_30": "6.00",
        "31_60": "10.00",
        "61_90": "0.00",
        over_90: "0.00",
      },
      total: "16.00",
    },
  ],
  totals: { current: "0.00", "1_30": "6.00", "31_60": "10.00", "61_90": "0.00", over_90: "0.00" },
  total: "16.00",
  invoice_count: 2,
};

const ReportSchema = z
  .object({
    as_of: z.string().openapi({ description: "The day (UTC) the ages are counted on." }),
    currency: z.literal("USDC"),
    vendors: z.array(
      z.object({
        vendor_email: z.string().openapi({ description: "Lower case: one vendor per address." }),
        vendor_name: z.string().openapi({ description: "As on its latest open invoice." }),
        invoice_count: z.number(),
        buckets: BucketsSchema,
        total: z.string(),
      }),
    ),
    totals: BucketsSchema,
    total: z.string().openapi({
      description:
        "The sum of the open invoices' `amount_due` (as GET /api/invoices reports each): exactly the buckets' sum.",
    }),
    invoice_count: z.number(),
  })
  .openapi("ReceivablesReport", { example });

const reportRoute = createRoute({
  method: "get",
  path: "/api/reports/receivables",
  tags: ["Reports"],
  summary: "Aged receivables",
  description:
    "What your open invoices (`sent` or partly paid; a draft is owed by nobody yet) still owe, by vendor, in buckets by days past the due date. Each invoice counts its `amount_due` (after partial payments), so `total` is the sum of the open invoices' `amount_due`. Vendors owing the most first. A `read` key is enough.",
  security: [{ bearerAuth: [] }],
  responses: {
    200: jsonResponse("The report", ReportSchema),
    ...errorResponses(400, 401),
  },
});

const CSV_HEADER = [
  "vendor_name",
  "vendor_email",
  "invoices",
  "current",
  "days_1_30",
  "days_31_60",
  "days_61_90",
  "days_over_90",
  "total",
  "currency",
];

const csvRoute = createRoute({
  method: "get",
  path: "/api/exports/receivables.csv",
  tags: ["Exports"],
  summary: "Export aged receivables as CSV",
  description:
    "`GET /api/reports/receivables` as CSV: one row per vendor, then a `Total` row (RFC 4180, UTF-8 with a byte order mark unless `bom=false`, CRLF; amounts as USDC decimals). A `read` key is enough.",
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      bom: z
        .enum(["true", "false"])
        .optional()
        .openapi({
          param: { name: "bom", in: "query" },
          description: "`false`: no byte order mark.",
        }),
    }),
  },
  responses: {
    200: {
      description: "The CSV file",
      content: {
        "text/csv": {
          schema: z.string(),
          example: `${CSV_HEADER.join(",")}\r\nGlobex,ap@globex.example,2,0.00,6.00,10.00,0.00,0.00,16.00,USDC\r\nTotal,,2,0.00,6.00,10.00,0.00,0.00,16.00,USDC\r\n`,
        },
      },
    },
    ...errorResponses(400, 401),
  },
});

const usdc = (buckets: Buckets) =>
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, formatUsdc(buckets[b])])) as Record<
    (typeof AGING_BUCKETS)[number],
    string
  >;

export function presentReport(
  report: ReceivablesReport,
  asOf: string,
): z.infer<typeof ReportSchema> {
  return {
    as_of: asOf,
    currency: "USDC",
    vendors: report.vendors.map((v) => ({
      vendor_email: v.vendorEmail,
      vendor_name: v.vendorName,
      invoice_count: v.invoiceCount,
      buckets: usdc(v.buckets),
      total: formatUsdc(v.total),
    })),
    totals: usdc(report.totals),
    total: formatUsdc(report.total),
    invoice_count: report.invoiceCount,
  };
}

/** The report's CSV: a row per vendor, then the totals. */
export function receivablesCsv(report: ReceivablesReport, bom: boolean): string {
  const row = (name: string, email: string, count: number, buckets: Buckets, total: bigint) =>
    csvRow([
      name,
      email,
      String(count),
      ...AGING_BUCKETS.map((b) => formatUsdc(buckets[b])),
      formatUsdc(total),
      "USDC",
    ]);
  return [
    bom ? CSV_BOM : "",
    csvRow(CSV_HEADER),
    ...report.vendors.map((v) =>
      row(v.vendorName, v.vendorEmail, v.invoiceCount, v.buckets, v.total),
    ),
    row("Total", "", report.invoiceCount, report.totals, report.total),
  ].join("");
}

export function registerReceivables(app: Router, deps: AppDeps): void {
  const clock = deps.clock ?? systemClock;
  const reportOf = async (merchantId: string) => {
    const today = await clock.today();
    return { today, report: agedReceivables(await openInvoicesOf(deps.db, merchantId), today) };
  };
  app.openapi(reportRoute, async (c) => {
    const identity = requireKey(c);
    assertKnownParams(c.req.query(), []);
    const { today, report } = await reportOf(identity.merchantId);
    return c.json(presentReport(report, today), 200);
  });
  app.openapi(csvRoute, async (c) => {
    const identity = requireKey(c);
    assertKnownParams(c.req.query(), ["bom"]);
    const { today, report } = await reportOf(identity.merchantId);
    return new Response(receivablesCsv(report, c.req.valid("query").bom !== "false"), {
      status: 200,
      headers: csvHeaders(`receivables_${today}.csv`),
    });
  });
}
