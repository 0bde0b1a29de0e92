import { describe, expect, test } from "vitest";
import { METADATA_KEY_PATTERN, metadataFilterValues } from "./metadata.ts";

describe("metadataFilterValues", () => {
  test.each([
    ["1042", ["1042", 1042]],
    ["-3.5", ["-3.5", -3.5]],
    ["true", ["true", true]],
    ["false", ["false", false]],
    ["null", ["null", null]],
    ["A-1042", ["A-1042"]],
    ["0x10", ["0x10"]],
    ["", [""]],
    ["1e999", ["1e999"]],
  ] as const)("%j matches %j", (text, values) => {
    expect(metadataFilterValues(text)).toEqual(values);
  });

  test("keys: letters, digits, _ . -, 1 to 40", () => {
    expect(METADATA_KEY_PATTERN.test("order_id")).toBe(true);
    expect(METADATA_KEY_PATTERN.test("a".repeat(41))).toBe(false);
    expect(METADATA_KEY_PATTERN.test("order id")).toBe(false);
  });
});
