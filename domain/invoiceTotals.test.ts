import { describe, expect, test } from "vitest";
import {
  priceInvoice,
  priceLineItems,
  quantityToString,
  taxLineProblems,
} from "./invoiceTotals.ts";

describe("quantityToString", () => {
  test.each([
    [12.5, "12.5"],
    [3, "3"],
    [1e-7, "0.0000001"],
    [0.1, "0.1"],
    [1e21, "1000000000000000000000"],
  ])("%s → %s", (input, expected) => {
    expect(quantityToString(input)).toBe(expected);
  });
});

describe("priceLineItems", () => {
  test("totals the rounded line totals", () => {
    const { lines, total } = priceLineItems([
      { description: "a", quantity: 2, unit_price: "75.00" },
      { description: "b", quantity: 0.5, unit_price: "0.000001" },
      { description: "c", quantity: 3, unit_price: "0.333333" },
    ]);
    expect(lines.map((line) => line.lineTotal)).toEqual([150_000_000n, 1n, 999_999n]);
    expect(total).toBe(150_000_000n + 1n + 999_999n);
    expect(lines[1]?.quantity).toBe("0.5");
  });
});

describe("priceInvoice", () => {
  test("without tax fields it is priceLineItems exactly: 6-decimal line totals, no tax", () => {
    const items = [
      { description: "a", quantity: 0.5, unit_price: "0.000001" },
      { description: "b", quantity: 3, unit_price: "0.333333" },
    ];
    expect(priceInvoice(items)).toEqual({ ...priceLineItems(items), tax: null });
  });

  test("with tax: net amounts to the cent, tax per category on its sum, total = subtotal + tax", () => {
    const { lines, total, tax } = priceInvoice([
      { description: "a", quantity: 2, unit_price: "75.00", tax_rate: "19" },
      { description: "b", quantity: 3, unit_price: "0.333333", tax_rate: "19" },
      { description: "c", quantity: 1, unit_price: "19.99", tax_rate: "7" },
    ]);
    expect(lines.map((line) => line.lineTotal)).toEqual([150_000_000n, 1_000_000n, 19_990_000n]);
    // 151.00 × 19 % = 28.69; 19.99 × 7 % = 1.3993 → 1.40
    expect(tax?.breakdown.map((row) => row.taxAmount)).toEqual([28_690_000n, 1_400_000n]);
    expect(tax?.subtotal).toBe(170_990_000n);
    expect(tax?.tax).toBe(30_090_000n);
    expect(total).toBe(201_080_000n);
  });
});

describe("taxLineProblems", () => {
  test("none without tax; every line needs its tax once one has it", () => {
    expect(taxLineProblems([{ description: "a" }, { description: "b" }])).toEqual([]);
    expect(
      taxLineProblems([{ tax_rate: "19" }, {}, { tax_category: "Z" }]).map((p) => [
        p.index,
        p.field,
        p.code,
      ]),
    ).toEqual([[1, "tax_category", "tax_required"]]);
  });

  test("each line's category and rate must agree; O stands alone", () => {
    expect(taxLineProblems([{ tax_rate: "0" }, { tax_category: "S" }]).map((p) => p.code)).toEqual([
      "tax_category_required",
      "tax_rate_required",
    ]);
    expect(
      taxLineProblems([{ tax_rate: "19" }, { tax_category: "O" }]).map((p) => [p.index, p.code]),
    ).toEqual([[1, "out_of_scope_mixed"]]);
  });
});
