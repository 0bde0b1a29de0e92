import { describe, expect, test } from "vitest";
import {
  agedReceivables,
  agedReceivablesByCurrency,
  agingBucket,
  type ReceivableInvoice,
} from "./receivables.ts";

describe("agingBucket", () => {
  test.each([
    ["2026-03-31", "current"],
    ["2026-04-01", "1_30"],
    ["2026-04-30", "1_30"], // 30 days
    ["2026-05-01", "31_60"], // 31 days
    ["2026-05-30", "31_60"], // 60
    ["2026-05-31", "61_90"], // 61
    ["2026-06-29", "61_90"], // 90
    ["2026-06-30", "over_90"], // 91
  ] as const)("due 2026-03-31, on %s: %s", (today, bucket) => {
    expect(agingBucket("2026-03-31", today)).toBe(bucket);
  });
  test("not yet due is current", () => {
    expect(agingBucket("2026-12-31", "2026-03-31")).toBe("current");
  });
});

describe("agedReceivables", () => {
  const invoice = (over: Partial<ReceivableInvoice>): ReceivableInvoice => ({
    status: "sent",
    currency: "USDC",
    total: 10_000_000n,
    credited: 0n,
    received: 0n,
    dueDate: "2026-03-01",
    vendorEmail: "ap@globex.example",
    vendorName: "Globex",
    ...over,
  });

  test("amounts due by vendor and bucket; paid, void and excess left out", () => {
    const report = agedReceivables(
      "USDC",
      [
        invoice({}), // 45 days late: 31_60, 10.00
        invoice({ status: "partial", received: 4_000_000n, dueDate: "2026-04-10" }), // 5 late: 6.00
        invoice({
          vendorEmail: "AP@Initech.example",
          vendorName: "Initech",
          dueDate: "2026-05-01",
        }),
        invoice({ status: "paid", received: 10_000_000n }),
        invoice({ status: "void" }),
        invoice({ status: "excess", received: 11_000_000n }),
      ],
      "2026-04-15",
    );
    expect(report.total).toBe(26_000_000n);
    expect(report.invoiceCount).toBe(3);
    expect(report.totals).toEqual({
      current: 10_000_000n,
      "1_30": 6_000_000n,
      "31_60": 10_000_000n,
      "61_90": 0n,
      over_90: 0n,
    });
    expect(report.vendors.map((v) => [v.vendorEmail, v.total])).toEqual([
      ["ap@globex.example", 16_000_000n],
      ["ap@initech.example", 10_000_000n],
    ]);
  });

  test("one report per currency: EUR owed is never added to USDC owed", () => {
    const { usdc, others } = agedReceivablesByCurrency(
      [
        invoice({}), // 10.00 USDC, 31_60
        invoice({ currency: "EUR", total: 100_000_000n, received: 40_000_000n, status: "partial" }),
        invoice({ currency: "GBP", status: "paid", received: 10_000_000n }), // owes nothing
        invoice({ currency: "EUR", vendorEmail: "ap@initech.example", dueDate: "2026-05-01" }),
      ],
      "2026-04-15",
    );
    expect(usdc.currency).toBe("USDC");
    expect(usdc.total).toBe(10_000_000n);
    expect(usdc.invoiceCount).toBe(1);
    expect(others.map((r) => [r.currency, r.total, r.invoiceCount])).toEqual([
      ["EUR", 70_000_000n, 2],
    ]);
    expect(others[0]?.totals["31_60"]).toBe(60_000_000n);
    expect(others[0]?.totals.current).toBe(10_000_000n);
  });
  test("nothing owed in USDC: its report is there, empty; none for a currency owing nothing", () => {
    const { usdc, others } = agedReceivablesByCurrency([], "2026-04-15");
    expect([usdc.total, usdc.vendors, others]).toEqual([0n, [], []]);
  });
  test("an invoice in another unit is refused, never added", () => {
    expect(() => agedReceivables("USDC", [invoice({ currency: "EUR" })], "2026-04-15")).toThrow(
      RangeError,
    );
  });
});
