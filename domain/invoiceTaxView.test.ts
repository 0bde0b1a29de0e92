import { describe, expect, test } from "vitest";
import { presentStoredLine, type StoredLine } from "./invoiceTaxView.ts";

const line: StoredLine = {
  description: "Design work",
  quantity: "2.5",
  unit_price: 75_000_000n,
  line_total: 187_500_000n,
  tax_category: null,
  tax_rate: null,
};

describe("presentStoredLine", () => {
  test("a line without tax is the spec's line: no tax field at all", () => {
    const presented = presentStoredLine(line);
    expect(presented).toEqual({
      description: "Design work",
      quantity: 2.5,
      unit_price: "75.00",
      line_total: "187.50",
    });
    expect(Object.keys(presented)).toEqual(["description", "quantity", "unit_price", "line_total"]);
  });

  test("a taxed line carries its category and rate", () => {
    expect(presentStoredLine({ ...line, tax_category: "S", tax_rate: "19" })).toMatchObject({
      tax_category: "S",
      tax_rate: "19",
    });
  });

  test("category O has no rate", () => {
    const presented = presentStoredLine({ ...line, tax_category: "O", tax_rate: null });
    expect(presented.tax_category).toBe("O");
    expect("tax_rate" in presented).toBe(false);
  });
});
