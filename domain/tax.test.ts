import { describe, expect, test } from "vitest";
import {
  categoryTax,
  exemptionReasonFor,
  type LineTax,
  lineNetAmount,
  parseTaxRate,
  resolveLineTax,
  taxBreakdown,
  taxTotals,
} from "./tax.ts";

const usdc = (whole: number) => BigInt(Math.round(whole * 100)) * 10_000n;
const rate = (text: string) => {
  const parsed = parseTaxRate(text);
  if (!parsed) throw new Error(text);
  return parsed;
};
const S = (text: string): LineTax => ({ category: "S", rate: rate(text) });

describe("parseTaxRate", () => {
  test("reads 0 to 100 with up to three decimals, written without trailing zeros", () => {
    expect(parseTaxRate("19")).toEqual({ text: "19", digits: 19n, scale: 0 });
    expect(parseTaxRate("7.50")).toEqual({ text: "7.5", digits: 75n, scale: 1 });
    expect(parseTaxRate("5.555")).toEqual({ text: "5.555", digits: 5555n, scale: 3 });
    expect(parseTaxRate("0")).toEqual({ text: "0", digits: 0n, scale: 0 });
    expect(parseTaxRate("100.0")?.text).toBe("100");
  });

  test("refuses what is not a percent from 0 to 100", () => {
    for (const text of ["", "-1", "100.5", "101", "019", "7.", ".5", "7.5555", "1e1", " 7"])
      expect(parseTaxRate(text), text).toBeNull();
  });
});

describe("resolveLineTax", () => {
  test("a rate above 0 alone is standard-rated", () => {
    expect(resolveLineTax("19", undefined)).toEqual({ category: "S", rate: rate("19") });
  });

  test("a rate of 0 alone is refused: the category must be said", () => {
    expect(resolveLineTax("0", undefined)).toMatchObject({
      field: "tax_category",
      code: "tax_category_required",
    });
  });

  test("the zero categories take 0 or no rate, O takes none, S needs one above 0", () => {
    for (const category of ["Z", "E", "AE", "K", "G"] as const) {
      expect(resolveLineTax(undefined, category)).toEqual({ category, rate: rate("0") });
      expect(resolveLineTax("0", category)).toEqual({ category, rate: rate("0") });
      expect(resolveLineTax("7", category)).toMatchObject({ code: "tax_rate_must_be_zero" });
    }
    expect(resolveLineTax(undefined, "O")).toEqual({ category: "O", rate: null });
    expect(resolveLineTax("0", "O")).toMatchObject({ code: "tax_rate_not_allowed" });
    expect(resolveLineTax(undefined, "S")).toMatchObject({ code: "tax_rate_required" });
    expect(resolveLineTax("0", "S")).toMatchObject({ code: "tax_rate_required" });
  });

  test("a malformed rate is a field error on tax_rate", () => {
    expect(resolveLineTax("19%", "S")).toMatchObject({
      field: "tax_rate",
      code: "invalid_tax_rate",
    });
  });
});

describe("lineNetAmount", () => {
  test("quantity × unit price, rounded half-up to the cent", () => {
    expect(lineNetAmount(2, usdc(75))).toBe(usdc(150));
    // 3 × 0.333333 = 0.999999 → 1.00
    expect(lineNetAmount(3, 333_333n)).toBe(usdc(1));
    // 1.5 × 0.015 = 0.0225 → 0.02; 0.5 × 0.015 = 0.0075 → 0.01
    expect(lineNetAmount(1.5, 15_000n)).toBe(usdc(0.02));
    expect(lineNetAmount(0.5, 15_000n)).toBe(usdc(0.01));
  });
});

describe("taxBreakdown and taxTotals", () => {
  test("one row per category and rate; the tax computed on each row's sum, not per line", () => {
    // Two lines of 0.03 at 19 %: per line 0.0057 → 0.01 each (0.02); on their sum 0.0114 → 0.01.
    const lines = [
      { netAmount: usdc(0.03), tax: S("19") },
      { netAmount: usdc(0.03), tax: S("19") },
    ];
    expect(taxBreakdown(lines)).toEqual([
      { category: "S", rate: rate("19"), taxableAmount: usdc(0.06), taxAmount: usdc(0.01) },
    ]);
  });

  test("mixed rates and categories, and the totals that add up (BR-CO-10, -14, -15)", () => {
    const lines = [
      { netAmount: usdc(100), tax: S("19") },
      { netAmount: usdc(50), tax: S("7") },
      { netAmount: usdc(20.5), tax: S("19") },
      { netAmount: usdc(30), tax: { category: "E", rate: rate("0") } satisfies LineTax },
      { netAmount: usdc(10), tax: { category: "O", rate: null } satisfies LineTax },
    ];
    const breakdown = taxBreakdown(lines);
    expect(breakdown.map((row) => [row.category, row.rate?.text ?? null])).toEqual([
      ["S", "19"],
      ["S", "7"],
      ["E", "0"],
      ["O", null],
    ]);
    // 120.50 × 19 % = 22.895 → 22.90; 50 × 7 % = 3.50.
    expect(breakdown.map((row) => row.taxAmount)).toEqual([usdc(22.9), usdc(3.5), 0n, 0n]);
    expect(taxTotals(lines, breakdown)).toEqual({
      subtotal: usdc(210.5),
      tax: usdc(26.4),
      total: usdc(236.9),
    });
  });

  test("a fractional rate, and a negative row (a credit's line) rounded away from zero", () => {
    expect(categoryTax(usdc(99.99), rate("5.5"))).toBe(usdc(5.5)); // 5.49945 → 5.50
    expect(categoryTax(-usdc(10.1), rate("5"))).toBe(-usdc(0.51)); // -0.505 → -0.51
    expect(categoryTax(usdc(10), null)).toBe(0n);
  });
});

describe("exemptionReasonFor", () => {
  test("the standard wording where the law has one, the merchant's where given, none for S and Z", () => {
    expect(exemptionReasonFor("AE", undefined)).toEqual({
      code: "VATEX-EU-AE",
      text: "Reverse charge",
    });
    expect(exemptionReasonFor("K", "Art. 138 VAT Directive")).toEqual({
      code: "VATEX-EU-IC",
      text: "Art. 138 VAT Directive",
    });
    expect(exemptionReasonFor("E", undefined)).toBeNull();
    expect(exemptionReasonFor("S", "anything")).toBeNull();
    expect(exemptionReasonFor("Z", undefined)).toBeNull();
  });
});
