import { describe, expect, test } from "vitest";
import { managedWalletFunds, payoutRefusal } from "./managedWallet.ts";

describe("managedWalletFunds", () => {
  test("the balance is what came in less what went out; unfinished refunds and payouts are reserved", () => {
    expect(
      managedWalletFunds({
        sweptIn: 5_000_000n,
        sentOut: 1_000_000n,
        pendingRefunds: 500_000n,
        pendingPayouts: 1_000_000n,
      }),
    ).toEqual({ balance: 4_000_000n, reserved: 1_500_000n, available: 2_500_000n });
  });
  test("never negative", () => {
    expect(
      managedWalletFunds({ sweptIn: 1n, sentOut: 2n, pendingRefunds: 5n, pendingPayouts: 0n }),
    ).toEqual({ balance: 0n, reserved: 5n, available: 0n });
  });
});

describe("payoutRefusal", () => {
  const funds = { balance: 4_000_000n, reserved: 1_000_000n, available: 3_000_000n };
  test("up to what is available", () => {
    expect(payoutRefusal(3_000_000n, funds)).toBeNull();
    expect(payoutRefusal(1n, funds)).toBeNull();
  });
  test("a payout never spends what pending refunds reserved", () => {
    expect(payoutRefusal(3_000_001n, funds)).toBe("exceeds_available");
    expect(payoutRefusal(4_000_000n, funds)).toBe("exceeds_available");
  });
  test("zero or less is refused", () => {
    expect(payoutRefusal(0n, funds)).toBe("not_positive");
  });
});
