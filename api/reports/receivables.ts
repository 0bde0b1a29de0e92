import { z } from "@hono/zod-openapi";
import { assertKnownParams } from "../../app/lists/listQuery.ts";
import {
  CSV_HEADER,
  ownReceivables,
  presentReport,
  receivablesCsvResponse,
} from "../../app/reports/receivables.ts";
import { CURRENCIES } from "../../domain/currencies.ts";
import { AGING_BUCKETS } from "../../domain/receivables.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { csvResponse, errorResponses, jsonResponse, keyRoute, type Router } from "../openapi.ts";

const BucketsSchema = z
  .object(
    Object.fromEntries(AGING_BUCKETS.map((b) => [b, z.string()])) as Record<
      (typeof AGING_BUCKETS)[number],
      z.ZodString
    >,
  )
  .openapi("ReceivablesBuckets", {
    description:
      "What is still due, in the report's `currency`, by days past the due date: `current` (not yet past it, the due date itself included), `1_30`, `31_60`, `61_90`, `over_90`.",
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
  other_currencies: [
    {
      currency: "EUR" as const,
      vendors: [
        {
          vendor_email: "ap@initech.example",
          vendor_name: "Initech",
          invoice_count: 1,
          buckets: {
            current: "100.00",
            "1_30": "0.00",
            "31_60": "0.00",
            "61_90": "0.00",
            over_90: "0.00",
          },
          total: "100.00",
        },
      ],
      totals: {
        current: "100.00",
        "1_30": "0.00",
        "31_60": "0.00",
        "61_90": "0.00",
        over_90: "0.00",
      },
      total: "100.00",
      invoice_count: 1,
    },
  ],
};

/** One currency's report: its vendors, buckets and totals, every amount in its `currency`. */
const currencyReportFields = {
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
      "The sum of the open invoices' `amount_due` in this currency (as GET /api/invoices reports each): exactly the buckets' sum.",
  }),
  invoice_count: z.number(),
};

const CurrencyReportSchema = z
  .object({
    currency: z.enum(CURRENCIES).exclude(["USDC"]).openapi({
      description: "What every amount of this report is in.",
    }),
    ...currencyReportFields,
  })
  .openapi("ReceivablesCurrencyReport");

const ReportSchema = z
  .object({
    as_of: z.string().openapi({ description: "The day (UTC) the ages are counted on." }),
    currency: z.literal("USDC").openapi({
      description: "The top-level figures are the invoices priced in USDC.",
    }),
    ...currencyReportFields,
    other_currencies: z.array(CurrencyReportSchema).optional().openapi({
      description:
        "Only when something is owed on invoices priced in a currency: one report per such currency (by code), each in its own unit. An amount in EUR is never added to one in USDC, so there is no total across them.",
    }),
  })
  .openapi("ReceivablesReport", { example });

const reportRoute = keyRoute({
  method: "get",
  path: "/api/reports/receivables",
  tags: ["Reports"],
  summary: "Aged receivables",
  description:
    "What your open invoices (`sent` or partly paid; a draft is owed by nobody yet) still owe, by vendor, in buckets by days past the due date, one report per currency: the invoices priced in USDC at the top level, those priced in EUR, GBP or USD in `other_currencies`, never summed across. Each invoice counts its `amount_due` (after partial payments), so a report's `total` is the sum of its open invoices' `amount_due`. Vendors owing the most first. A `read` key is enough.",
  responses: {
    200: jsonResponse("The report", ReportSchema),
    ...errorResponses(400, 401),
  },
});

const csvRoute = keyRoute({
  method: "get",
  path: "/api/exports/receivables.csv",
  tags: ["Exports"],
  summary: "Export aged receivables as CSV",
  description:
    "`GET /api/reports/receivables` as CSV: per currency (USDC first), one row per vendor, then that currency's `Total` row; the `currency` column says what a row's amounts are in (RFC 4180, UTF-8 with a byte order mark unless `bom=false`, CRLF; amounts as decimals). A `read` key is enough.",
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
    200: csvResponse(
      `${CSV_HEADER.join(",")}\r\nGlobex,ap@globex.example,2,0.00,6.00,10.00,0.00,0.00,16.00,USDC\r\nTotal,,2,0.00,6.00,10.00,0.00,0.00,16.00,USDC\r\nInitech,ap@initech.example,1,100.00,0.00,0.00,0.00,0.00,100.00,EUR\r\nTotal,,1,100.00,0.00,0.00,0.00,0.00,100.00,EUR\r\n`,
    ),
    ...errorResponses(400, 401),
  },
});

export function registerReceivables(app: Router, deps: AppDeps): void {
  app.openapi(reportRoute, async (c) => {
    const actor = merchantActorOf(c);
    assertKnownParams(c.req.query(), []);
    const { today, report } = await ownReceivables(deps, actor);
    return c.json(presentReport(report, today), 200);
  });
  app.openapi(csvRoute, async (c) => {
    const actor = merchantActorOf(c);
    assertKnownParams(c.req.query(), ["bom"]);
    return receivablesCsvResponse(deps, actor, c.req.valid("query").bom !== "false");
  });
}
