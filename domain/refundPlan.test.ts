import { describe, expect, test } from "vitest";
import { planRefund, type RefundFacts, refundableOf, sweepableAfterRefunds } from "./refundPlan.ts";
import { decideSweep } from "./sweepPolicy.ts";

const facts = (overrides: Partial<RefundFacts>): RefundFacts => ({
  walletType: "byo",
  received: 0n,
  swept: 0n,
  sweptConfirmed: 0n,
  refundedFromDeposit: 0n,
  refundedFromWallet: 0n,
  // By default everything received beyond 3.00 is not the merchant's (an invoice of 3.00).
  revenue: 3_000_000n,
  ...overrides,
});

describe("refundableOf", () => {
  test("byo excess after the sweep: only the held excess; the total is in the merchant's wallet", () => {
    expect(
      refundableOf(facts({ received: 3_500_000n, swept: 3_000_000n, sweptConfirmed: 3_000_000n })),
    ).toEqual({
      deposit: 500_000n,
      held: 500_000n,
      managedWallet: 0n,
      sweptToOwnWallet: 3_000_000n,
      refunding: 0n,
    });
  });
  test("a refund requested, submitted or confirmed is no longer refundable", () => {
    expect(
      refundableOf(
        facts({ received: 3_500_000n, swept: 3_000_000n, refundedFromDeposit: 500_000n }),
      ).deposit,
    ).toBe(0n);
  });
  test("an unswept partial payment and a void invoice's payment are held whole", () => {
    expect(refundableOf(facts({ received: 1_000_000n })).deposit).toBe(1_000_000n);
    // Partially paid: the payer is paying the merchant, its money is revenue, not held.
    expect(refundableOf(facts({ received: 1_000_000n, revenue: 1_000_000n })).held).toBe(0n);
    // Void: nothing of it is revenue.
    expect(refundableOf(facts({ received: 1_000_000n, revenue: 0n })).held).toBe(1_000_000n);
  });
  test("managed: the swept total is refundable from the managed wallet once it arrived", () => {
    expect(
      refundableOf(
        facts({
          walletType: "managed",
          received: 3_500_000n,
          swept: 3_000_000n,
          sweptConfirmed: 3_000_000n,
          refundedFromWallet: 1_000_000n,
        }),
      ),
    ).toEqual({
      deposit: 500_000n,
      held: 500_000n,
      managedWallet: 2_000_000n,
      sweptToOwnWallet: 0n,
      refunding: 1_000_000n,
    });
    // Still moving: not in the wallet yet, not refundable from it.
    expect(
      refundableOf(facts({ walletType: "managed", received: 3_000_000n, swept: 3_000_000n }))
        .managedWallet,
    ).toBe(0n);
  });
  test("never negative (a payment reorged out after a refund)", () => {
    expect(refundableOf(facts({ received: 1n, refundedFromDeposit: 5n })).deposit).toBe(0n);
  });
});

describe("planRefund", () => {
  const held = {
    deposit: 500_000n,
    held: 500_000n,
    managedWallet: 0n,
    sweptToOwnWallet: 3_000_000n,
    refunding: 0n,
  };
  test("no amount: everything held on the deposit (the excess)", () => {
    expect(planRefund(undefined, held)).toEqual({
      ok: true,
      source: "deposit",
      amount: 500_000n,
    });
  });
  test("an amount the deposit holds comes from the deposit", () => {
    expect(planRefund(200_000n, held)).toEqual({ ok: true, source: "deposit", amount: 200_000n });
  });
  test("more than Remit holds while the rest went to the merchant's own wallet: refused, saying so", () => {
    expect(planRefund(3_500_000n, held)).toEqual({
      ok: false,
      reason: "swept_to_own_wallet",
      available: 500_000n,
    });
  });
  test("everything swept to a byo wallet: nothing to refund here", () => {
    expect(planRefund(undefined, { ...held, deposit: 0n, held: 0n })).toEqual({
      ok: false,
      reason: "swept_to_own_wallet",
      available: 0n,
    });
  });
  test("nothing received: nothing held", () => {
    expect(
      planRefund(undefined, {
        deposit: 0n,
        held: 0n,
        managedWallet: 0n,
        sweptToOwnWallet: 0n,
        refunding: 0n,
      }),
    ).toEqual({ ok: false, reason: "nothing_held", available: 0n });
  });
  test("no amount never refunds revenue: an unswept payment or the managed wallet need an amount", () => {
    const unswept = { deposit: 3_000_000n, held: 0n, managedWallet: 0n, sweptToOwnWallet: 0n };
    expect(planRefund(undefined, { ...unswept, refunding: 0n })).toEqual({
      ok: false,
      reason: "revenue_needs_amount",
      available: 3_000_000n,
    });
    expect(planRefund(3_000_000n, { ...unswept, refunding: 0n })).toEqual({
      ok: true,
      source: "deposit",
      amount: 3_000_000n,
    });
  });
  test("managed: an explicit amount comes from the wallet when the deposit holds too little", () => {
    const managed = {
      deposit: 500_000n,
      held: 500_000n,
      managedWallet: 3_000_000n,
      sweptToOwnWallet: 0n,
      refunding: 0n,
    };
    expect(planRefund(undefined, { ...managed, deposit: 0n, held: 0n })).toEqual({
      ok: false,
      reason: "revenue_needs_amount",
      available: 3_000_000n,
    });
    expect(planRefund(2_000_000n, managed)).toEqual({
      ok: true,
      source: "managed_wallet",
      amount: 2_000_000n,
    });
    // One refund is one transfer from one address: both together must be two refunds.
    expect(planRefund(3_500_000n, managed)).toEqual({
      ok: false,
      reason: "split_needed",
      available: 3_000_000n,
    });
    expect(planRefund(4_000_000n, managed)).toEqual({
      ok: false,
      reason: "exceeds_refundable",
      available: 3_000_000n,
    });
  });
  test("the issue's retry: 2.00 paid 3.50 (managed), the excess refunded, the same request again moves nothing", () => {
    const paid = { walletType: "managed" as const, received: 3_500_000n, revenue: 2_000_000n };
    const first = planRefund(
      undefined,
      refundableOf(facts({ ...paid, swept: 2_000_000n, sweptConfirmed: 2_000_000n })),
    );
    expect(first).toEqual({ ok: true, source: "deposit", amount: 1_500_000n });
    const after = refundableOf(
      facts({
        ...paid,
        swept: 2_000_000n,
        sweptConfirmed: 2_000_000n,
        refundedFromDeposit: 1_500_000n,
      }),
    );
    expect(planRefund(undefined, after)).toEqual({
      ok: false,
      reason: "revenue_needs_amount",
      available: 2_000_000n,
    });
    // Revenue only on an explicit amount.
    expect(planRefund(2_000_000n, after)).toEqual({
      ok: true,
      source: "managed_wallet",
      amount: 2_000_000n,
    });
  });
  test("a refund of revenue from the deposit before the sweep takes the held excess first", () => {
    const r = refundableOf(
      facts({ received: 3_500_000n, revenue: 3_000_000n, refundedFromDeposit: 1_000_000n }),
    );
    expect(r).toMatchObject({ deposit: 2_500_000n, held: 0n });
  });
  test("a second refund of money swept to byo after the excess was refunded: told it is refunded", () => {
    const after = refundableOf(
      facts({ received: 3_500_000n, swept: 3_000_000n, refundedFromDeposit: 500_000n }),
    );
    expect(planRefund(undefined, after)).toMatchObject({ ok: false, reason: "nothing_held" });
    expect(planRefund(3_000_000n, after)).toMatchObject({
      ok: false,
      reason: "swept_to_own_wallet",
    });
  });
  test("a second refund of the same money: the first one's amount is no longer held", () => {
    const voidPayment = { received: 700_000n, revenue: 0n };
    const first = planRefund(undefined, refundableOf(facts(voidPayment)));
    expect(first).toMatchObject({ ok: true, amount: 700_000n });
    const after = refundableOf(facts({ ...voidPayment, refundedFromDeposit: 700_000n }));
    expect(planRefund(undefined, after)).toMatchObject({ ok: false, reason: "nothing_held" });
    expect(planRefund(1n, after)).toMatchObject({ ok: false, reason: "nothing_held" });
  });
});

describe("sweeps and refunds never spend the same money", () => {
  const settings = { minAmount: 1n, partialAfterMs: 3_600_000 };
  const now = new Date("2026-05-01T12:00:00Z");
  test("a refund requested before the sweep: the sweep moves only what is left", () => {
    expect(sweepableAfterRefunds(3_000_000n, 0n, 1_000_000n)).toBe(2_000_000n);
    expect(
      decideSweep({
        owner: { kind: "invoice", status: "paid", amount: 3_000_000n },
        received: 3_000_000n,
        swept: 0n,
        refunding: 1_000_000n,
        lastChangeAt: now,
        now,
        settings,
      }),
    ).toEqual({ sweep: true, amount: 2_000_000n });
  });
  test("excess refunded whole before the sweep: the total is still swept, never the refund's part", () => {
    expect(
      decideSweep({
        owner: { kind: "invoice", status: "excess", amount: 3_000_000n },
        received: 3_500_000n,
        swept: 0n,
        refunding: 500_000n,
        lastChangeAt: now,
        now,
        settings,
      }),
    ).toEqual({ sweep: true, amount: 3_000_000n });
  });
  test("a void invoice is never swept: its payment is held for refund", () => {
    expect(
      decideSweep({
        owner: { kind: "invoice", status: "void", amount: 3_000_000n },
        received: 3_000_000n,
        swept: 0n,
        lastChangeAt: new Date(now.getTime() - 100 * 3_600_000),
        now,
        settings,
      }),
    ).toEqual({ sweep: false, reason: "nothing_to_sweep" });
  });
});
