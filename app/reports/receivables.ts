import { systemClock } from "../../db/clock.ts";
import { openInvoicesOf } from "../../db/queries/receivables.ts";
import { CSV_BOM, csvRow } from "../../domain/csv.ts";
import type { Currency, FiatCurrency } from "../../domain/currencies.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  AGING_BUCKETS,
  agedReceivablesByCurrency,
  type Buckets,
  type ReceivablesReport,
} from "../../domain/receivables.ts";
import type { MerchantActor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { csvHeaders, exportFileNameOf } from "../exports/csvStream.ts";

export type PresentedBuckets = Record<(typeof AGING_BUCKETS)[number], string>;

/** One currency's report: every amount in `currency`. */
export type PresentedCurrencyReport<C extends Currency = Currency> = {
  currency: C;
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

/**
 * The report as the API shows it: the invoices priced in USDC at the top level (the report's
 * shape before currencies, unchanged), and, only when something is owed in another currency,
 * one report per such currency.
 */
export type PresentedReport = { as_of: string } & PresentedCurrencyReport<"USDC"> & {
    other_currencies?: PresentedCurrencyReport<FiatCurrency>[];
  };

/** The actor's receivables, one report per currency (domain/receivables.ts). */
export type OwnReceivables = { usdc: ReceivablesReport; others: ReceivablesReport[] };

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
): Promise<{ today: string; report: OwnReceivables }> {
  const merchantId = ownMerchantId(actor.identity);
  const today = await (deps.clock ?? systemClock).today();
  return {
    today,
    report: agedReceivablesByCurrency(await openInvoicesOf(deps.db, merchantId), today),
  };
}

/** Buckets as decimals of 6-decimal base units (formatUsdc), in their report's currency. */
const decimals = (buckets: Buckets): PresentedBuckets =>
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, formatUsdc(buckets[b])])) as PresentedBuckets;

function presentFigures(report: ReceivablesReport): Omit<PresentedCurrencyReport, "currency"> {
  return {
    vendors: report.vendors.map((v) => ({
      vendor_email: v.vendorEmail,
      vendor_name: v.vendorName,
      invoice_count: v.invoiceCount,
      buckets: decimals(v.buckets),
      total: formatUsdc(v.total),
    })),
    totals: decimals(report.totals),
    total: formatUsdc(report.total),
    invoice_count: report.invoiceCount,
  };
}

/**
 * The report as the API (and the dashboard) shows it: amounts as decimals, each in its report's
 * currency; USDC's at the top level, the others in `other_currencies`.
 */
export function presentReport(report: OwnReceivables, asOf: string): PresentedReport {
  return {
    as_of: asOf,
    currency: "USDC",
    ...presentFigures(report.usdc),
    // Only when owed: a merchant billing in USDC alone gets the body it always got.
    ...(report.others.length
      ? {
          other_currencies: report.others.flatMap(({ currency, ...rest }) =>
            currency === "USDC" ? [] : [{ currency, ...presentFigures({ currency, ...rest }) }],
          ),
        }
      : {}),
  };
}

/**
 * The report's CSV: per currency (USDC first), a row per vendor, then that currency's `Total`
 * row; the `currency` column says what each row's amounts are in. A merchant owed only USDC gets
 * the file it always got.
 */
export function receivablesCsv(report: OwnReceivables, bom: boolean): string {
  const row = (
    currency: Currency,
    name: string,
    email: string,
    count: number,
    buckets: Buckets,
    total: bigint,
  ) =>
    csvRow([
      name,
      email,
      String(count),
      ...AGING_BUCKETS.map((b) => formatUsdc(buckets[b])),
      formatUsdc(total),
      currency,
    ]);
  const rowsOf = (r: ReceivablesReport) => [
    ...r.vendors.map((v) =>
      row(r.currency, v.vendorName, v.vendorEmail, v.invoiceCount, v.buckets, v.total),
    ),
    row(r.currency, "Total", "", r.invoiceCount, r.totals, r.total),
  ];
  return [
    bom ? CSV_BOM : "",
    csvRow(CSV_HEADER),
    ...rowsOf(report.usdc),
    ...report.others.flatMap(rowsOf),
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
