import { describe, expect, test } from "vitest";
import {
  belowRefundMinimum,
  overRelayerBudget,
  REFUND_GAS_RESERVE,
  secondsUntilWindowFrees,
} from "./relayerBudget.ts";

describe("the relayer's gas budgets", () => {
  const budget = { daily: 1_000_000n, perMerchantDaily: 300_000n };

  test("within both: nothing over; the service's is judged first, then the merchant's", () => {
    expect(overRelayerBudget({ global: 0n, merchant: 0n }, 300_000n, budget)).toBeNull();
    expect(overRelayerBudget({ global: 900_000n, merchant: 0n }, 100_001n, budget)).toBe("global");
    expect(overRelayerBudget({ global: 0n, merchant: 200_000n }, 100_001n, budget)).toBe(
      "merchant",
    );
    expect(overRelayerBudget({ global: 999_999n, merchant: 299_999n }, 2n, budget)).toBe("global");
  });

  test("a daily budget of 0 allows nothing; a per-merchant budget of 0 is no limit", () => {
    expect(overRelayerBudget({ global: 0n, merchant: 0n }, 1n, { ...budget, daily: 0n })).toBe(
      "global",
    );
    expect(
      overRelayerBudget({ global: 0n, merchant: 10n ** 9n }, REFUND_GAS_RESERVE, {
        ...budget,
        perMerchantDaily: 0n,
      }),
    ).toBeNull();
  });

  test("a refund below the minimum is refused with the minimum named; at it, allowed", () => {
    expect(belowRefundMinimum(1n, 100_000n)).toContain("0.10 USDC");
    expect(belowRefundMinimum(99_999n, 100_000n)).not.toBeNull();
    expect(belowRefundMinimum(100_000n, 100_000n)).toBeNull();
    expect(belowRefundMinimum(1n, 0n)).toBeNull();
  });

  test("a rolling window frees a place when its oldest event leaves it, at least 1 s ahead", () => {
    const now = new Date("2026-03-01T12:00:00Z");
    expect(secondsUntilWindowFrees(new Date("2026-03-01T11:30:00Z"), 3_600_000, now)).toBe(1800);
    expect(secondsUntilWindowFrees(new Date("2026-03-01T10:00:00Z"), 3_600_000, now)).toBe(1);
  });
});
