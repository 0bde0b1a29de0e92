import { type Currency, groupByCurrency } from "./currencies.ts";
import { openAmountDue } from "./moneyRules.ts";
import { daysBetween } from "./schedule.ts";
import type { StoredInvoiceStatus } from "./statuses.ts";

/**
 * Aged receivables (GET /api/reports/receivables): what open invoices still owe, by vendor, in
 * buckets by days past the due date. Every figure is moneyRules' openAmountDue, so the
 * report's total is exactly the sum of the open invoices' `amount_due`. One report per currency
 * (agedReceivablesByCurrency): an amount owed in EUR is never added to one owed in USDC, as
 * Stripe's and BTCPay's reports give a total per currency and never one across them.
 */

export const AGING_BUCKETS = ["current", "1_30", "31_60", "61_90", "over_90"] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/**
 * The bucket of an invoice due on `dueDate`, on `today`: `current` until the due date has
 * passed (the due date itself included), then by whole days past it.
 *
 * @example agingBucket("2026-03-31", "2026-03-31") // "current"
 * @example agingBucket("2026-03-31", "2026-04-01") // "1_30"
 * @example agingBucket("2026-03-31", "2026-07-01") // "over_90" (92 days)
 */
export function agingBucket(dueDate: string, today: string): AgingBucket {
  const late = daysBetween(dueDate, today);
  if (late <= 0) return "current";
  if (late <= 30) return "1_30";
  if (late <= 60) return "31_60";
  if (late <= 90) return "61_90";
  return "over_90";
}

export type Buckets = Record<AgingBucket, bigint>;

const emptyBuckets = (): Buckets => ({
  current: 0n,
  "1_30": 0n,
  "31_60": 0n,
  "61_90": 0n,
  over_90: 0n,
});

/** An open invoice; `total`, `credited` and `received` in its `currency` (receivedInOwnUnit). */
export type ReceivableInvoice = {
  status: StoredInvoiceStatus;
  currency: Currency;
  total: bigint;
  /** What its credit notes took off (moneyRules' invoicedAmount). */
  credited: bigint;
  received: bigint;
  dueDate: string;
  vendorEmail: string;
  vendorName: string;
};

export type VendorReceivables = {
  vendorEmail: string;
  vendorName: string;
  buckets: Buckets;
  total: bigint;
  invoiceCount: number;
};

export type ReceivablesReport = {
  /** What every amount of the report is in. */
  currency: Currency;
  vendors: VendorReceivables[];
  totals: Buckets;
  total: bigint;
  invoiceCount: number;
};

/**
 * The reports of a merchant's invoices on `today`, one per currency: USDC's always (the report
 * as it was before invoices were priced in currencies, empty when nothing is owed in USDC), then
 * one for each currency something is owed in, by code.
 */
export function agedReceivablesByCurrency(
  invoices: readonly ReceivableInvoice[],
  today: string,
): { usdc: ReceivablesReport; others: ReceivablesReport[] } {
  const reports = groupByCurrency(invoices).map(([currency, group]) =>
    agedReceivables(currency, group, today),
  );
  return {
    usdc: reports.find((r) => r.currency === "USDC") ?? agedReceivables("USDC", [], today),
    others: reports.filter((r) => r.currency !== "USDC" && r.invoiceCount > 0),
  };
}

/**
 * The report of a merchant's invoices in `currency` on `today`: each invoice with something due
 * counts its amount due in its bucket, under its vendor (by email, case-insensitively; the name
 * of its latest invoice). Vendors owing the most come first, then by email. An invoice in another
 * currency is refused: its amount would be added in the wrong unit.
 */
export function agedReceivables(
  currency: Currency,
  invoices: readonly ReceivableInvoice[],
  today: string,
): ReceivablesReport {
  const byVendor = new Map<string, VendorReceivables>();
  const totals = emptyBuckets();
  let total = 0n;
  let invoiceCount = 0;
  for (const invoice of invoices) {
    if (invoice.currency !== currency)
      throw new RangeError(`an invoice in ${invoice.currency} in the ${currency} receivables`);
    const due = openAmountDue(invoice.status, invoice.total, invoice.received, invoice.credited);
    if (due === 0n) continue;
    const bucket = agingBucket(invoice.dueDate, today);
    const key = invoice.vendorEmail.toLowerCase();
    let vendor = byVendor.get(key);
    if (!vendor) {
      vendor = {
        vendorEmail: key,
        vendorName: invoice.vendorName,
        buckets: emptyBuckets(),
        total: 0n,
        invoiceCount: 0,
      };
      byVendor.set(key, vendor);
    }
    vendor.buckets[bucket] += due;
    vendor.total += due;
    vendor.invoiceCount += 1;
    totals[bucket] += due;
    total += due;
    invoiceCount += 1;
  }
  const vendors = [...byVendor.values()].sort((a, b) =>
    a.total === b.total ? a.vendorEmail.localeCompare(b.vendorEmail) : a.total > b.total ? -1 : 1,
  );
  return { currency, vendors, totals, total, invoiceCount };
}
