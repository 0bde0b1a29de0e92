import { describe, expect, test } from "vitest";
import {
  defaultDueDate,
  promptAddress,
  promptAmount,
  promptAmountProblem,
  promptQuantity,
} from "./promptValues.ts";

describe("values typed at the interactive prompts", () => {
  test("a whole number of USDC is taken as meant; decimals pass unchanged", () => {
    expect(promptAmount("100")).toBe("100.00");
    expect(promptAmount(" 7 ")).toBe("7.00");
    expect(promptAmount("2.5")).toBe("2.50");
    expect(promptAmount("19.5")).toBe("19.50");
    expect(promptAmount("0.000001")).toBe("0.000001");
    expect(promptAmount("1e2")).toBe("1e2"); // refused: see promptAmountProblem
  });

  test("a refused amount says why, in the parser's words", () => {
    expect(promptAmountProblem("40")).toBeUndefined();
    expect(promptAmountProblem("1,000")).toMatch(/without separators/);
    expect(promptAmountProblem("1.1234567")).toMatch(/at most 6 decimals/);
    expect(promptAmountProblem("-3")).toMatch(/negative/);
    expect(promptAmountProblem("")).toMatch(/enter an amount/);
  });

  test("an empty quantity is the default 1; a typed one is exactly what was typed", () => {
    expect(promptQuantity("")).toBe(1);
    expect(promptQuantity("2.5")).toBe(2.5);
    expect(promptQuantity("12")).toBe(12);
  });

  test("the default due date is 30 days on, across months and years", () => {
    expect(defaultDueDate("2026-11-23")).toBe("2026-12-23");
    expect(defaultDueDate("2026-12-15")).toBe("2027-01-14");
    expect(defaultDueDate("2028-02-01", 28)).toBe("2028-02-29");
  });

  test("a lower- or upper-case address is checksummed; a wrong checksum is left for the API", () => {
    const checksummed = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    expect(promptAddress(checksummed.toLowerCase())).toBe(checksummed);
    expect(promptAddress(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed);
    expect(promptAddress(checksummed)).toBe(checksummed);
    const wrong = "0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    expect(promptAddress(wrong)).toBe(wrong);
    expect(promptAddress("0x123")).toBe("0x123");
  });
});
