import { describe, expect, test } from "vitest";
import { decideSweep, type SweepInput, settledAmount } from "./sweepPolicy.ts";

const HOUR = 3_600_000;
const now = new Date("2026-05-01T12:00:00Z");
const settings = { minAmount: 100_000n, partialAfterMs: 6 * HOUR };
const invoice = (status: "draft" | "sent" | "paid" | "partial" | "excess") =>
  ({ kind: "invoice", status, amount: 3_000_000n }) as const;
const link = (status: "pending" | "confirmed" | "partial" | "excess") =>
  ({ kind: "link", status, amount: 10_000_000n }) as const;
const input = (overrides: Partial<SweepInput>): SweepInput => ({
  owner: invoice("paid"),
  received: 3_000_000n,
  swept: 0n,
  lastChangeAt: new Date(now.getTime() - 1000),
  now,
  settings,
  ...overrides,
});

describe("decideSweep", () => {
  test("paid: the total is swept", () => {
    expect(decideSweep(input({}))).toEqual({ sweep: true, amount: 3_000_000n });
  });
  test("excess: exactly the total is swept; the excess stays held", () => {
    expect(
      decideSweep(input({ owner: invoice("excess"), received: 3_500_000n, balance: 3_500_000n })),
    ).toEqual({
      sweep: true,
      amount: 3_000_000n,
    });
  });
  test("a payment after the sweep: the excess is held, nothing is swept", () => {
    expect(
      decideSweep(input({ owner: invoice("excess"), received: 4_000_000n, swept: 3_000_000n })),
    ).toEqual({
      sweep: false,
      reason: "nothing_to_sweep",
    });
  });
  test("partial: never while the payer may still be paying; retry when it has been quiet", () => {
    const last = new Date(now.getTime() - HOUR);
    expect(
      decideSweep(input({ owner: invoice("partial"), received: 1_000_000n, lastChangeAt: last })),
    ).toEqual({
      sweep: false,
      reason: "partial",
      retryAt: new Date(last.getTime() + 6 * HOUR),
    });
  });
  test("partial and quiet for SWEEP_PARTIAL_AFTER: what arrived is swept", () => {
    const last = new Date(now.getTime() - 6 * HOUR);
    expect(
      decideSweep(input({ owner: invoice("partial"), received: 1_000_000n, lastChangeAt: last })),
    ).toEqual({
      sweep: true,
      amount: 1_000_000n,
    });
  });
  test("completed after a partial sweep: the rest of the total is swept", () => {
    expect(decideSweep(input({ owner: invoice("paid"), swept: 1_000_000n }))).toEqual({
      sweep: true,
      amount: 2_000_000n,
    });
  });
  test("nothing received, or not settled: no sweep", () => {
    expect(decideSweep(input({ owner: invoice("sent"), received: 0n }))).toEqual({
      sweep: false,
      reason: "nothing_received",
    });
  });
  test("never more than the balance", () => {
    expect(decideSweep(input({ balance: 2_000_000n }))).toEqual({
      sweep: true,
      amount: 2_000_000n,
    });
    expect(decideSweep(input({ balance: 0n }))).toEqual({
      sweep: false,
      reason: "nothing_to_sweep",
    });
  });
  test("below SWEEP_MIN_AMOUNT: held, whatever its status", () => {
    const last = new Date(now.getTime() - 7 * HOUR);
    expect(
      decideSweep(input({ owner: invoice("partial"), received: 1n, lastChangeAt: last })),
    ).toEqual({
      sweep: false,
      reason: "below_minimum",
    });
    expect(
      decideSweep(
        input({ owner: { kind: "invoice", status: "paid", amount: 50_000n }, received: 50_000n }),
      ),
    ).toEqual({
      sweep: false,
      reason: "below_minimum",
    });
  });
  test("SWEEP_PARTIAL_AFTER 0 sweeps a partial payment at once", () => {
    expect(
      decideSweep(
        input({
          owner: invoice("partial"),
          received: 1_000_000n,
          settings: { ...settings, partialAfterMs: 0 },
        }),
      ),
    ).toEqual({ sweep: true, amount: 1_000_000n });
  });
});

describe("underpayment tolerance: an invoice paid short settles what arrived", () => {
  test("paid within the tolerance: what arrived is swept, nothing more", () => {
    expect(settledAmount(invoice("paid"), 2_950_000n)).toBe(2_950_000n);
    expect(decideSweep(input({ received: 2_950_000n }))).toEqual({
      sweep: true,
      amount: 2_950_000n,
    });
  });
  test("a top-up after the tolerated sweep is swept up to the total", () => {
    expect(decideSweep(input({ received: 3_000_000n, swept: 2_950_000n }))).toEqual({
      sweep: false,
      reason: "below_minimum",
    });
  });
});

describe("links: every whole amount received is settled", () => {
  test.each([
    ["pending", 0n, 0n],
    ["partial", 4_000_000n, null],
    ["confirmed", 10_000_000n, 10_000_000n],
    ["confirmed", 10_000_005n, 10_000_000n], // dust held
    ["excess", 20_000_000n, 20_000_000n], // two payments
    ["excess", 24_000_000n, 20_000_000n], // and the next one begun, or an overpayment: held
  ] as const)("%s with %s received settles %s", (status, received, settled) => {
    expect(settledAmount(link(status), received)).toBe(settled);
  });
  test("a second payer's partial payment on a paid link is held until it completes", () => {
    expect(
      decideSweep(input({ owner: link("excess"), received: 14_000_000n, swept: 10_000_000n })),
    ).toEqual({ sweep: false, reason: "nothing_to_sweep" });
    expect(
      decideSweep(input({ owner: link("excess"), received: 20_000_000n, swept: 10_000_000n })),
    ).toEqual({ sweep: true, amount: 10_000_000n });
  });
});

describe("an owner priced in a currency: the rule in the currency, that share of the USDC", () => {
  // 100 EUR asked; USDC received at about 1.08 USDC per EUR.
  const eur = (status: "paid" | "partial" | "excess" | "void", receivedInCurrency: bigint) =>
    ({ kind: "invoice", status, amount: 100_000_000n, receivedInCurrency }) as const;

  test("paid: everything that arrived is settled, though the USDC figure exceeds the EUR amount", () => {
    expect(settledAmount(eur("paid", 100_000_000n), 108_000_000n)).toBe(108_000_000n);
    // A conversion a unit over the amount still settles all of it: no dust left behind.
    expect(settledAmount(eur("paid", 100_000_001n), 108_000_001n)).toBe(108_000_001n);
  });

  test("excess: the share its total was worth, the rest held for refund", () => {
    // 125 EUR worth arrived as 135 USDC: 100/125 of it is the merchant's.
    expect(settledAmount(eur("excess", 125_000_000n), 135_000_000n)).toBe(108_000_000n);
  });

  test("partial, void, and payments still waiting for a rate", () => {
    expect(settledAmount(eur("partial", 50_000_000n), 54_000_000n)).toBeNull();
    expect(settledAmount(eur("void", 100_000_000n), 108_000_000n)).toBe(0n);
    // Arrived, but no usable rate yet: held as a partial payment is.
    expect(settledAmount(eur("paid", 0n), 108_000_000n)).toBeNull();
    expect(settledAmount(eur("paid", 0n), 0n)).toBe(0n);
  });

  test("decideSweep sweeps a paid EUR invoice's whole USDC balance", () => {
    expect(
      decideSweep(input({ owner: eur("paid", 100_000_000n), received: 108_000_000n })),
    ).toEqual({ sweep: true, amount: 108_000_000n });
  });
});
