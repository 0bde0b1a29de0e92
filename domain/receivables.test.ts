import { describe, expect, test } from "vitest";
import { agedReceivables, agingBucket, type ReceivableInvoice } from "./receivables.ts";

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
});
