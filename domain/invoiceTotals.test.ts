import { describe, expect, test } from "vitest";
import { priceLineItems, quantityToString } from "./invoiceTotals.ts";

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
