import { describe, expect, test } from "vitest";
import {
  amountDue,
  invoiceAmountDue,
  invoicedAmount,
  invoiceMoney,
  isOverdue,
  monthStartOf,
  netReceived,
  openAmountDue,
  outstanding,
  overview,
  receivedInCurrencyForStatus,
  refundedAmount,
  shareInCurrency,
} from "./moneyRules.ts";

describe("invoiceAmountDue", () => {
  test.each([
    ["paid", 2_950_000n, 0n], // paid within the tolerance: nothing more is asked
    ["paid", 3_000_000n, 0n],
    ["partial", 2_000_000n, 1_000_000n],
    ["sent", 0n, 3_000_000n],
    ["draft", 0n, 3_000_000n],
    ["excess", 3_100_000n, 0n],
    ["void", 0n, 0n], // cancelled: nothing is owed
    ["void", 1_000_000n, 0n], // a payment after voiding is held for refund, not a part payment
  ] as const)("%s with %s received of 3.00 → %s due", (status, received, due) => {
    expect(invoiceAmountDue(status, 3_000_000n, received, 0n)).toBe(due);
  });
  test("a credit note lowers what is due: the total less what was credited, less what arrived", () => {
    expect(invoicedAmount(3_000_000n, 1_000_000n)).toBe(2_000_000n);
    expect(invoiceAmountDue("partial", 3_000_000n, 500_000n, 1_000_000n)).toBe(1_500_000n);
    expect(invoiceAmountDue("sent", 3_000_000n, 0n, 3_000_000n)).toBe(0n);
    // Credited below what arrived: nothing is due (the rest is excess, refundable).
    expect(invoiceAmountDue("excess", 3_000_000n, 2_000_000n, 2_500_000n)).toBe(0n);
  });
});

describe("amountDue", () => {
  test("never negative", () => {
    expect(amountDue(5n, 2n)).toBe(3n);
    expect(amountDue(5n, 9n)).toBe(0n);
  });
});

describe("isOverdue", () => {
  test("draft and sent, the day after the due date", () => {
    expect(isOverdue("sent", "2026-01-31", "2026-01-31")).toBe(false);
    expect(isOverdue("sent", "2026-01-31", "2026-02-01")).toBe(true);
    expect(isOverdue("draft", "2026-01-31", "2026-02-01")).toBe(true);
  });
  test("never once money arrived, nor when void", () => {
    for (const status of ["paid", "partial", "excess", "void"] as const)
      expect(isOverdue(status, "2020-01-01", "2026-02-01")).toBe(false);
  });
});

describe("refunds", () => {
  test("only confirmed refunds count as paid back", () => {
    const refunds = [
      { status: "confirmed", amount: 150n },
      { status: "confirmed", amount: 30n },
      { status: "submitted", amount: 7n },
      { status: "requested", amount: 5n },
      { status: "failed", amount: 100n },
    ] as const;
    expect(refundedAmount(refunds)).toBe(180n);
    expect(refundedAmount([])).toBe(0n);
  });
  test("net is received less refunded", () => {
    expect(netReceived(377n, 180n)).toBe(197n);
  });
  test("invoiceMoney puts them together", () => {
    expect(
      invoiceMoney(
        { status: "excess", total: 100n, credited: 0n, dueDate: "2026-01-01" },
        130n,
        30n,
        "2026-02-01",
      ),
    ).toEqual({
      invoiced: 100n,
      credited: 0n,
      received: 130n,
      refunded: 30n,
      net: 100n,
      due: 0n,
      overdue: false,
    });
  });
  test("priced in a currency, received and due are in it, net is the USDC kept", () => {
    // 110 EUR received for 100 EUR, as 121 USDC of which 11 were refunded.
    expect(
      invoiceMoney(
        { status: "excess", total: 100n, credited: 0n, dueDate: "2026-01-01" },
        110n,
        11n,
        "2026-02-01",
        121n,
      ),
    ).toMatchObject({ received: 110n, refunded: 11n, net: 110n, due: 0n });
  });
});

describe("outstanding", () => {
  test("sums what open invoices owe, void and paid ones owe nothing", () => {
    const today = "2026-02-01";
    const sum = outstanding(
      [
        { status: "sent", total: 100n, credited: 0n, received: 0n, dueDate: "2026-01-01" }, // overdue
        { status: "draft", total: 40n, credited: 0n, received: 0n, dueDate: "2026-03-01" },
        { status: "partial", total: 100n, credited: 0n, received: 60n, dueDate: "2026-01-01" }, // not overdue
        { status: "void", total: 150n, credited: 0n, received: 0n, dueDate: "2026-01-01" },
        { status: "paid", total: 100n, credited: 0n, received: 99n, dueDate: "2026-01-01" },
        { status: "excess", total: 100n, credited: 0n, received: 130n, dueDate: "2026-01-01" },
      ],
      today,
    );
    expect(sum).toEqual({ due: 180n, count: 3, overdue: 100n, overdueCount: 1 });
  });
});

describe("overview", () => {
  test("received, refunded and net this month; outstanding by the amount-due rule", () => {
    const figures = overview(
      {
        receivedThisMonth: 377_500_000n,
        refundsThisMonth: [
          { status: "confirmed", amount: 150_000_000n },
          { status: "confirmed", amount: 30_000_000n },
        ],
        openInvoices: [
          {
            status: "void",
            currency: "USDC",
            total: 149_975_000n,
            credited: 0n,
            received: 0n,
            dueDate: "2026-01-01",
          },
          {
            status: "sent",
            currency: "USDC",
            total: 10_000_000n,
            credited: 0n,
            received: 0n,
            dueDate: "2026-01-01",
          },
        ],
      },
      "2026-02-15",
    );
    expect(figures).toEqual({
      receivedThisMonth: 377_500_000n,
      refundedThisMonth: 180_000_000n,
      netThisMonth: 197_500_000n,
      outstanding: 10_000_000n,
      outstandingCount: 1,
      overdue: 10_000_000n,
      overdueCount: 1,
      owedInCurrencies: [],
    });
  });
  test("what is owed is per currency: EUR owed is never added to USDC owed", () => {
    const figures = overview(
      {
        receivedThisMonth: 110_000_000n,
        refundsThisMonth: [],
        openInvoices: [
          {
            status: "sent",
            currency: "USDC",
            total: 50_000_000n,
            credited: 0n,
            received: 0n,
            dueDate: "2026-03-01",
          },
          {
            status: "partial",
            currency: "EUR",
            total: 100_000_000n,
            credited: 0n,
            received: 40_000_000n, // in EUR: receivedInOwnUnit
            dueDate: "2026-01-01",
          },
          {
            status: "sent",
            currency: "GBP",
            total: 20_000_000n,
            credited: 0n,
            received: 0n,
            dueDate: "2026-01-01",
          },
        ],
      },
      "2026-02-15",
    );
    expect(figures.outstanding).toBe(50_000_000n);
    expect(figures.overdue).toBe(0n);
    expect(figures.owedInCurrencies).toEqual([
      { currency: "EUR", due: 60_000_000n, count: 1, overdue: 0n, overdueCount: 0 },
      { currency: "GBP", due: 20_000_000n, count: 1, overdue: 20_000_000n, overdueCount: 1 },
    ]);
  });
  test("the month starts at midnight UTC on its first day", () => {
    expect(monthStartOf("2026-02-15").toISOString()).toBe("2026-02-01T00:00:00.000Z");
  });
});

describe("openAmountDue", () => {
  test("what a sent or partly paid invoice still asks for; nothing for any other", () => {
    expect(openAmountDue("sent", 3_000_000n, 0n, 0n)).toBe(3_000_000n);
    expect(openAmountDue("sent", 3_000_000n, 0n, 1_000_000n)).toBe(2_000_000n);
    expect(openAmountDue("partial", 3_000_000n, 2_000_000n, 0n)).toBe(1_000_000n);
    for (const status of ["draft", "paid", "excess", "void"] as const)
      expect(openAmountDue(status, 3_000_000n, 0n, 0n), status).toBe(0n);
  });
});

describe("receivedInCurrencyForStatus", () => {
  test("within half a cent of the amount counts as the amount", () => {
    expect(receivedInCurrencyForStatus(100_000_000n, 99_999_999n)).toBe(100_000_000n);
    expect(receivedInCurrencyForStatus(100_000_000n, 100_005_000n)).toBe(100_000_000n);
    expect(receivedInCurrencyForStatus(100_000_000n, 99_995_000n)).toBe(100_000_000n);
  });

  test("further off, the sum as it is: short is partial, over is excess", () => {
    expect(receivedInCurrencyForStatus(100_000_000n, 99_994_999n)).toBe(99_994_999n);
    expect(receivedInCurrencyForStatus(100_000_000n, 100_005_001n)).toBe(100_005_001n);
    expect(receivedInCurrencyForStatus(100_000_000n, 0n)).toBe(0n);
  });
});

describe("shareInCurrency", () => {
  test("a refund's share of the currency the payments were converted to, down to the cent", () => {
    // 121 USDC counted as 110 EUR: 11 USDC returns 10 EUR.
    const state = { received: 121_000_000n, receivedInCurrency: 110_000_000n };
    expect(shareInCurrency(11_000_000n, state)).toBe(10_000_000n);
    // 1 USDC of it is 0.909090… EUR: 0.90, never rounded up.
    expect(shareInCurrency(1_000_000n, state)).toBe(900_000n);
    expect(shareInCurrency(121_000_000n, state)).toBe(110_000_000n);
    // Nothing counted or nothing converted yet: nothing to speak of in the currency.
    expect(shareInCurrency(1_000_000n, { received: 0n, receivedInCurrency: 0n })).toBe(0n);
    expect(shareInCurrency(1_000_000n, { received: 5_000_000n, receivedInCurrency: 0n })).toBe(0n);
  });
});
