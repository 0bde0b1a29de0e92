import type { PricedLineItem } from "./invoiceTotals.ts";
import { formatUsdc } from "./money.ts";
import {
  exemptionReasonFor,
  type LineTax,
  parseTaxRate,
  type TaxCategory,
  taxBreakdown,
  taxTotals,
} from "./tax.ts";

/**
 * An invoice's tax as every surface shows it (the API's detail, the PDF, the e-invoices): the
 * breakdown and totals derived from its stored lines by the one rule (domain/tax.ts), and what
 * the parties are to the tax authorities. Null for an invoice without tax.
 */
export type InvoiceTaxView = {
  subtotal: bigint;
  tax: bigint;
  breakdown: {
    category: TaxCategory;
    /** Percent, as stored ("19", "7.5"); null for O. */
    rate: string | null;
    taxableAmount: bigint;
    taxAmount: bigint;
    /** Why no tax is charged, for the categories that say (AE, K, G, O, E). */
    exemption: { code: string | null; text: string } | null;
  }[];
  merchantTaxId: string | null;
  vendorTaxId: string | null;
  merchantCountry: string | null;
  vendorCountry: string | null;
};

type TaxRecord = {
  merchant_tax_id?: string | null;
  vendor_tax_id?: string | null;
  merchant_country?: string | null;
  vendor_country?: string | null;
  tax_exemption_reason?: string | null;
};

export function invoiceTaxView(
  record: TaxRecord,
  lines: readonly Pick<PricedLineItem, "lineTotal" | "tax">[],
): InvoiceTaxView | null {
  const taxed = lines.flatMap((line) =>
    line.tax ? [{ netAmount: line.lineTotal, tax: line.tax }] : [],
  );
  if (taxed.length === 0) return null;
  const breakdown = taxBreakdown(taxed);
  const { subtotal, tax } = taxTotals(taxed, breakdown);
  return {
    subtotal,
    tax,
    breakdown: breakdown.map((row) => ({
      category: row.category,
      rate: row.rate?.text ?? null,
      taxableAmount: row.taxableAmount,
      taxAmount: row.taxAmount,
      exemption: exemptionReasonFor(row.category, record.tax_exemption_reason),
    })),
    merchantTaxId: record.merchant_tax_id ?? null,
    vendorTaxId: record.vendor_tax_id ?? null,
    merchantCountry: record.merchant_country ?? null,
    vendorCountry: record.vendor_country ?? null,
  };
}

/**
 * The view's amounts as the API writes them (decimal strings): the detail's `subtotal_amount`,
 * `tax_amount` and `tax_breakdown`, which the CLI's dry run shows too.
 */
export function taxAmountFields(view: InvoiceTaxView) {
  return {
    subtotal_amount: formatUsdc(view.subtotal),
    tax_amount: formatUsdc(view.tax),
    tax_breakdown: view.breakdown.map((row) => ({
      category: row.category,
      rate: row.rate,
      taxable_amount: formatUsdc(row.taxableAmount),
      tax_amount: formatUsdc(row.taxAmount),
      exemption_reason: row.exemption?.text ?? null,
    })),
  };
}

/** A stored line's tax (migration 0039's columns), or null on an invoice without tax. */
export function storedLineTax(row: {
  tax_category: TaxCategory | null;
  tax_rate: string | null;
}): LineTax | null {
  if (!row.tax_category) return null;
  return { category: row.tax_category, rate: row.tax_rate ? parseTaxRate(row.tax_rate) : null };
}

/** A stored line, an invoice's or a credit note's. */
export type StoredLine = {
  description: string;
  quantity: string;
  unit_price: bigint;
  line_total: bigint;
  tax_category: TaxCategory | null;
  tax_rate: string | null;
};

/**
 * A stored line as a priced line, its tax as stored: what the credit note rules compare and
 * total.
 */
export function storedPricedLine(row: StoredLine): PricedLineItem {
  return {
    description: row.description,
    quantity: row.quantity,
    unitPrice: row.unit_price,
    lineTotal: row.line_total,
    tax: storedLineTax(row),
  };
}

/** A stored line as the API shows it, an invoice's `line_items` or a credit note's. */
export type PresentedLine = {
  description: string;
  quantity: number;
  unit_price: string;
  line_total: string;
  tax_category?: TaxCategory;
  tax_rate?: string;
};

/**
 * A stored line as the API shows it: its tax category (and rate, but for category O) only on
 * an invoice with tax, so a line without tax is the spec's line, unchanged.
 */
export function presentStoredLine(line: StoredLine): PresentedLine {
  return {
    description: line.description,
    quantity: Number(line.quantity),
    unit_price: formatUsdc(line.unit_price),
    line_total: formatUsdc(line.line_total),
    ...(line.tax_category
      ? {
          tax_category: line.tax_category,
          ...(line.tax_rate !== null ? { tax_rate: line.tax_rate } : {}),
        }
      : {}),
  };
}
