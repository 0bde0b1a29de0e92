import { describe, expect, test } from "vitest";
import { invoiceAmountDue, MAX_UNDERPAYMENT_TOLERANCE } from "./underpaymentTolerance.ts";

describe("invoiceAmountDue", () => {
  test.each([
    ["paid", 2_950_000n, 0n], // paid within the tolerance: nothing more is asked
    ["paid", 3_000_000n, 0n],
    ["partial", 2_000_000n, 1_000_000n],
    ["sent", 0n, 3_000_000n],
    ["excess", 3_100_000n, 0n],
  ] as const)("%s with %s received of 3.00 → %s due", (status, received, due) => {
    expect(invoiceAmountDue(status, 3_000_000n, received)).toBe(due);
  });
  test("the cap is 10 USDC in base units", () => {
    expect(MAX_UNDERPAYMENT_TOLERANCE).toBe(10n * 10n ** 6n);
  });
});
