import { numberToDecimal, divideRoundHalfUp as roundHalfUp } from "./money.ts";

/**
 * Tax on invoice lines, as EN 16931 computes it (the European e-invoice standard; its rules
 * BR-CO-10, BR-CO-14, BR-CO-15, BR-CO-17 and the per-category BR-S/Z/E/AE/IC/G/O rules).
 * Pure: the API, the PDF, the e-invoices, the exports and credit notes all read these numbers.
 *
 * Units: USDC base units (6 decimals), as every amount in Remit. EN 16931 allows at most two
 * decimals on every amount of a document (BR-DEC-*), so an invoice that carries tax computes in
 * whole cents (1 cent = 10,000 base units): each line's net amount is quantity × unit price
 * rounded half-up to the cent, each category's tax is its taxable sum × rate / 100 rounded
 * half-up to the cent, the total is their sum. Unit prices keep their 6 decimals (a price may
 * have more than two: BT-146 has no limit). An invoice without tax keeps the spec's rule
 * (line totals to 6 decimals, domain/invoiceTotals.ts): nothing changes for it.
 */

/**
 * The VAT category codes (UNTDID 5305, as EN 16931 uses them):
 * S standard rate, Z zero-rated, E exempt, AE reverse charge, K intra-community supply,
 * G export outside the EU, O outside the scope of tax.
 */
export const TAX_CATEGORIES = ["S", "Z", "E", "AE", "K", "G", "O"] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/** What a person reads for each category (PDF, dashboard). */
export const TAX_CATEGORY_NAMES: Record<TaxCategory, string> = {
  S: "Standard rate",
  Z: "Zero-rated",
  E: "Exempt",
  AE: "Reverse charge",
  K: "Intra-community supply",
  G: "Export outside the EU",
  O: "Outside the scope of tax",
};

/**
 * The categories whose breakdown must state why no tax is charged (BR-E-10, BR-AE-10,
 * BR-IC-10, BR-G-10, BR-O-10), with the VATEX code of the reason and the wording used when the
 * merchant gives none. Exempt supplies have no default: the legal ground (an article of the VAT
 * directive, a national provision) is the merchant's to state.
 */
export const EXEMPTION_REASONS: Partial<
  Record<TaxCategory, { code: string | null; defaultText: string | null }>
> = {
  // An exemption's code depends on its legal ground (VATEX-EU-132, -135, …): the text says it.
  E: { code: null, defaultText: null },
  AE: { code: "VATEX-EU-AE", defaultText: "Reverse charge" },
  K: { code: "VATEX-EU-IC", defaultText: "Intra-community supply" },
  G: { code: "VATEX-EU-G", defaultText: "Export outside the EU" },
  O: { code: "VATEX-EU-O", defaultText: "Not subject to VAT" },
};

/** The categories that require both parties' VAT identifiers (BR-AE-02, BR-IC-02). */
export const CATEGORIES_NEEDING_BOTH_TAX_IDS: readonly TaxCategory[] = ["AE", "K"];
/** The categories that require the seller's VAT identifier (BR-S-02, BR-Z-02, BR-G-02, …). */
export const CATEGORIES_NEEDING_SELLER_TAX_ID: readonly TaxCategory[] = [
  "S",
  "Z",
  "E",
  "AE",
  "K",
  "G",
];

/** One cent of USDC in base units: the unit of every amount of a taxed invoice. */
export const CENT = 10_000n;

/** A tax rate in percent, exact: value = digits × 10^-scale ("7.5" → 75 × 10⁻¹). */
export type TaxRate = { text: string; digits: bigint; scale: number };

/** "19", "7.5", "0", "5.55": 0 to 100, at most three decimals. */
export const TAX_RATE_PATTERN = /^(?:100(?:\.0{1,3})?|(?:0|[1-9]\d?)(?:\.\d{1,3})?)$/;

/** The rate a decimal string denotes, written without trailing zeros ("7.50" → "7.5"). */
export function parseTaxRate(text: string): TaxRate | null {
  if (!TAX_RATE_PATTERN.test(text)) return null;
  const [whole = "0", rawFraction = ""] = text.split(".");
  const fraction = rawFraction.replace(/0+$/, "");
  return {
    text: fraction ? `${whole}.${fraction}` : whole,
    digits: BigInt(`${whole}${fraction}`),
    scale: fraction.length,
  };
}

const isZero = (rate: TaxRate) => rate.digits === 0n;

/** Why a line's tax fields cannot stand, as a field-level code and message. */
export type TaxLineProblem = {
  field: "tax_rate" | "tax_category";
  code: string;
  message: string;
};

/** A line's tax, resolved: its category and its rate (none for O, which has no rate). */
export type LineTax = { category: TaxCategory; rate: TaxRate | null };

/**
 * A line's category and rate from what was sent: a rate above 0 alone is standard-rated (S);
 * a rate of 0 alone is refused (zero-rated, exempt and out of scope are different documents);
 * S needs a rate above 0 (BR-S-05), Z/E/AE/K/G a rate of 0 or none (BR-Z-05, BR-E-05,
 * BR-AE-05, BR-IC-05, BR-G-05), O no rate at all (BR-O-05).
 */
export function resolveLineTax(
  rateText: string | undefined,
  category: TaxCategory | undefined,
): LineTax | TaxLineProblem {
  const rate = rateText === undefined ? undefined : parseTaxRate(rateText);
  if (rate === null)
    return {
      field: "tax_rate",
      code: "invalid_tax_rate",
      message: 'must be a percent from 0 to 100 as a decimal string, such as "19" or "7.5"',
    };
  const resolved = category ?? (rate && !isZero(rate) ? "S" : undefined);
  if (resolved === undefined)
    return {
      field: "tax_category",
      code: "tax_category_required",
      message: `is required with a rate of 0: say which of ${TAX_CATEGORIES.filter((c) => c !== "S").join(", ")} applies`,
    };
  if (resolved === "S") {
    if (!rate || isZero(rate))
      return {
        field: "tax_rate",
        code: "tax_rate_required",
        message: "must be above 0 for the standard-rated category S",
      };
    return { category: "S", rate };
  }
  if (resolved === "O") {
    if (rate)
      return {
        field: "tax_rate",
        code: "tax_rate_not_allowed",
        message: "must be omitted for category O (outside the scope of tax)",
      };
    return { category: "O", rate: null };
  }
  if (rate && !isZero(rate))
    return {
      field: "tax_rate",
      code: "tax_rate_must_be_zero",
      message: `must be 0 or omitted for category ${resolved}`,
    };
  return { category: resolved, rate: parseTaxRate("0") };
}

/** A line's net amount on a taxed invoice: quantity × unit price, rounded half-up to the cent. */
export function lineNetAmount(quantity: number, unitPrice: bigint): bigint {
  const { digits, scale } = numberToDecimal(quantity);
  return roundHalfUp(digits * unitPrice, 10n ** BigInt(scale) * CENT) * CENT;
}

/** One row of the tax breakdown (EN 16931 BG-23): one per category and rate. */
export type TaxBreakdownRow = {
  category: TaxCategory;
  rate: TaxRate | null;
  taxableAmount: bigint;
  taxAmount: bigint;
};

/**
 * The breakdown of taxed lines: one row per category and rate, in the order first met, each
 * row's tax its taxable sum × rate / 100 rounded half-up to the cent (BR-CO-17). A line's net
 * amount may be negative (a credit's line), and so may a row.
 */
export function taxBreakdown(
  lines: readonly { netAmount: bigint; tax: LineTax }[],
): TaxBreakdownRow[] {
  const rows = new Map<string, TaxBreakdownRow>();
  for (const { netAmount, tax } of lines) {
    const key = `${tax.category}:${tax.rate?.text ?? ""}`;
    const row = rows.get(key) ?? {
      category: tax.category,
      rate: tax.rate,
      taxableAmount: 0n,
      taxAmount: 0n,
    };
    row.taxableAmount += netAmount;
    rows.set(key, row);
  }
  for (const row of rows.values()) row.taxAmount = categoryTax(row.taxableAmount, row.rate);
  return [...rows.values()];
}

/** taxable × rate / 100, rounded half-up (away from zero) to the cent; 0 without a rate. */
export function categoryTax(taxable: bigint, rate: TaxRate | null): bigint {
  if (!rate) return 0n;
  const taxableCents = taxable / CENT;
  return roundHalfUp(taxableCents * rate.digits, 100n * 10n ** BigInt(rate.scale)) * CENT;
}

/** The totals of a taxed document: net sum, tax sum, and what it asks for (BR-CO-10/14/15). */
export type TaxTotals = { subtotal: bigint; tax: bigint; total: bigint };

export function taxTotals(
  lines: readonly { netAmount: bigint }[],
  breakdown: readonly TaxBreakdownRow[],
): TaxTotals {
  const subtotal = lines.reduce((sum, line) => sum + line.netAmount, 0n);
  const tax = breakdown.reduce((sum, row) => sum + row.taxAmount, 0n);
  return { subtotal, tax, total: subtotal + tax };
}

/** The exemption reason each row of the breakdown states, or null where none is due. */
export function exemptionReasonFor(
  category: TaxCategory,
  given: string | null | undefined,
): { code: string | null; text: string } | null {
  const reason = EXEMPTION_REASONS[category];
  if (!reason) return null;
  const text = given ?? reason.defaultText;
  return text ? { code: reason.code, text } : null;
}
