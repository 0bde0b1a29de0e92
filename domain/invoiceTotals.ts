import type { Currency } from "./currencies.ts";
import { lineTotal, numberToDecimal, usdcToBaseUnits } from "./money.ts";
import {
  type LineTax,
  lineNetAmount,
  resolveLineTax,
  type TaxBreakdownRow,
  type TaxCategory,
  taxBreakdown,
  taxTotals,
} from "./tax.ts";

export type LineItemInput = {
  description: string;
  quantity: number;
  unit_price: string;
  tax_rate?: string | undefined;
  tax_category?: TaxCategory | undefined;
};

export type PricedLineItem = {
  description: string;
  /** The quantity as an exact decimal string ("12.5"), as stored and printed. */
  quantity: string;
  unitPrice: bigint;
  /** On a taxed invoice, the line's net amount (to the cent, domain/tax.ts). */
  lineTotal: bigint;
  /** The line's tax category and rate; null on an invoice without tax. */
  tax: LineTax | null;
};

/** "12.5" for 12.5, "0.0000001" for 1e-7: the exact decimal, never exponent notation. */
export function quantityToString(quantity: number): string {
  const { digits, scale } = numberToDecimal(quantity);
  if (scale === 0) return digits.toString();
  const padded = digits.toString().padStart(scale + 1, "0");
  return `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

/**
 * One line priced: its unit price in base units, and `amount` (the rounding of its pricing) of
 * its quantity at that price as its total, with its `tax`.
 */
function pricedLine(
  item: LineItemInput,
  amount: (quantity: number, unitPrice: bigint) => bigint,
  tax: LineTax | null,
): PricedLineItem {
  const unitPrice = usdcToBaseUnits(item.unit_price);
  return {
    description: item.description,
    quantity: quantityToString(item.quantity),
    unitPrice,
    lineTotal: amount(item.quantity, unitPrice),
    tax,
  };
}

/**
 * Each line's total (quantity × unit price, rounded half-up to 6 decimals) and the invoice
 * total (their sum), in USDC base units.
 */
export function priceLineItems(items: readonly LineItemInput[]): {
  lines: PricedLineItem[];
  total: bigint;
} {
  const lines = items.map((item) => pricedLine(item, lineTotal, null));
  return { lines, total: lines.reduce((sum, line) => sum + line.lineTotal, 0n) };
}

/** Whether any line carries tax: then the invoice is taxed, every line of it. */
export const carriesTax = (items: readonly LineItemInput[]): boolean =>
  items.some((item) => item.tax_rate !== undefined || item.tax_category !== undefined);

/** The tax of an invoice that carries it: net sum, tax sum, and the breakdown per category. */
export type InvoiceTax = { subtotal: bigint; tax: bigint; breakdown: TaxBreakdownRow[] };

/**
 * The one pricing of an invoice's lines. Without tax (no line has `tax_rate` or
 * `tax_category`): priceLineItems, the spec's rule (for an invoice priced in a currency: each
 * line half-up to the cent). With tax: each line's net amount to the cent,
 * the breakdown and the totals of domain/tax.ts; `total` (what the payer owes) is subtotal +
 * tax. Lines must have been checked (taxLineProblems): a line whose tax cannot be resolved
 * throws.
 */
export function priceInvoice(
  items: readonly LineItemInput[],
  currency: Currency = "USDC",
): {
  lines: PricedLineItem[];
  total: bigint;
  tax: InvoiceTax | null;
} {
  if (!carriesTax(items)) {
    if (currency === "USDC") return { ...priceLineItems(items), tax: null };
    // Priced in a currency: each line to the cent, as a taxed invoice's (a currency settles to
    // its cent; USDC keeps its 6 decimals).
    const lines = items.map((item) => pricedLine(item, lineNetAmount, null));
    return { lines, total: lines.reduce((sum, line) => sum + line.lineTotal, 0n), tax: null };
  }
  const lines = items.map((item) => {
    const tax = resolveLineTax(item.tax_rate, item.tax_category);
    if ("code" in tax) throw new RangeError(`line "${item.description}": ${tax.message}`);
    return pricedLine(item, lineNetAmount, tax);
  });
  return { lines, ...pricedTotals(lines) };
}

/** Totals of priced lines: their sum without tax; with tax, the breakdown of domain/tax.ts. */
export function pricedTotals(lines: readonly PricedLineItem[]): {
  total: bigint;
  tax: InvoiceTax | null;
} {
  const taxed = lines.flatMap((line) =>
    line.tax ? [{ netAmount: line.lineTotal, tax: line.tax }] : [],
  );
  if (taxed.length === 0)
    return { total: lines.reduce((sum, line) => sum + line.lineTotal, 0n), tax: null };
  const breakdown = taxBreakdown(taxed);
  const { subtotal, tax, total } = taxTotals(taxed, breakdown);
  return { total, tax: { subtotal, tax, breakdown } };
}

/**
 * The field errors of the lines' tax: every line of a taxed invoice needs its tax stated
 * (EN 16931 BR-CO-04), each one's category and rate must agree (domain/tax.ts resolveLineTax),
 * and a line outside the scope of tax (O) cannot share an invoice with taxed ones (BR-O-11).
 */
export function taxLineProblems(
  items: readonly Partial<LineItemInput>[],
): { index: number; field: "tax_rate" | "tax_category"; code: string; message: string }[] {
  const asInput = items as LineItemInput[];
  if (!carriesTax(asInput)) return [];
  const categories = new Set<TaxCategory>();
  const problems = items.flatMap((item, index) => {
    if (item.tax_rate === undefined && item.tax_category === undefined)
      return [
        {
          index,
          field: "tax_category" as const,
          code: "tax_required",
          message: "every line needs tax_rate or tax_category once one line has them",
        },
      ];
    const resolved = resolveLineTax(item.tax_rate, item.tax_category);
    if ("code" in resolved) return [{ index, ...resolved }];
    categories.add(resolved.category);
    return [];
  });
  if (problems.length === 0 && categories.has("O") && categories.size > 1)
    return [
      {
        index: items.findIndex((item) => item.tax_category === "O"),
        field: "tax_category",
        code: "out_of_scope_mixed",
        message: "a line outside the scope of tax (O) cannot share an invoice with taxed lines",
      },
    ];
  return problems;
}

/**
 * The largest invoice total accepted: 100 billion USDC in base units, more than all USDC in
 * existence, and far inside Postgres's bigint.
 */
export const MAX_TOTAL = 100_000_000_000n * 1_000_000n;
