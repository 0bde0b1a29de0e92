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
import type { MerchantActor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { csvHeaders, exportFileNameOf } from "../exports/csvStream.ts";

export type PresentedBuckets = Record<(typeof AGING_BUCKETS)[number], string>;

export type PresentedReport = {
  as_of: string;
  currency: "USDC";
  vendors: {
    vendor_email: string;
    vendor_name: string;
    invoice_count: number;
    buckets: PresentedBuckets;
    total: string;
  }[];
  totals: PresentedBuckets;
  total: string;
  invoice_count: number;
};

export const CSV_HEADER = [
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

/**
 * The actor's aged receivables, counted on today (the clock's): what its open invoices still
 * owe, by vendor and bucket of days past the due date.
 */
export async function ownReceivables(
  deps: Pick<CoreDeps, "db" | "clock">,
  actor: MerchantActor,
): Promise<{ today: string; report: ReceivablesReport }> {
  const merchantId = ownMerchantId(actor.identity);
  const today = await (deps.clock ?? systemClock).today();
  return { today, report: agedReceivables(await openInvoicesOf(deps.db, merchantId), today) };
}

const usdc = (buckets: Buckets): PresentedBuckets =>
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, formatUsdc(buckets[b])])) as PresentedBuckets;

/** The report as the API (and the dashboard) shows it: amounts as USDC decimals. */
export function presentReport(report: ReceivablesReport, asOf: string): PresentedReport {
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

/**
 * The report's CSV download, GET /api/exports/receivables.csv's and the dashboard's alike: named
 * after the merchant and the day it is counted on, as the other exports are
 * (`acme-ltd_receivables_2026-11-30.csv`).
 */
export async function receivablesCsvResponse(
  deps: Pick<CoreDeps, "db" | "clock">,
  actor: MerchantActor,
  bom: boolean,
): Promise<Response> {
  const { today, report } = await ownReceivables(deps, actor);
  const name = await exportFileNameOf(
    deps.db,
    ownMerchantId(actor.identity),
    "receivables",
    {},
    today,
  );
  return new Response(receivablesCsv(report, bom), { status: 200, headers: csvHeaders(name) });
}
