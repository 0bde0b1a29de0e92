import { describe, expect, test } from "vitest";
import { MAX_UNDERPAYMENT_TOLERANCE } from "./underpaymentTolerance.ts";

describe("MAX_UNDERPAYMENT_TOLERANCE", () => {
  test("the cap is 10 USDC in base units", () => {
    expect(MAX_UNDERPAYMENT_TOLERANCE).toBe(10n * 10n ** 6n);
  });
});
