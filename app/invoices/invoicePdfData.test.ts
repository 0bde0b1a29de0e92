import { describe, expect, test } from "vitest";
import { type InvoiceRecordForPdf, invoicePdfData } from "./invoicePdfData.ts";

const record: InvoiceRecordForPdf = {
  invoice_number: "INV-0042",
  issue_date: "2026-11-20",
  due_date: "2026-12-20",
  created_at: new Date("2026-11-20T09:30:00.000Z"),
  merchant_name_snapshot: "Acme GmbH",
  merchant_address_snapshot: "Hauptstraße 1, Berlin",
  merchant_email: "billing@acme.example",
  vendor_name: "Globex SAS",
  vendor_email: "ap@globex.example",
  deposit_address: "0x8ba1f109551bd432803012645ac136ddd64dba72",
  total_amount: 150_000_000n,
};
const lines = [
  {
    description: "Design work",
    quantity: "2",
    unitPrice: 75_000_000n,
    lineTotal: 150_000_000n,
    tax: null,
  },
];
const url = "http://localhost:3000/i/abc";

describe("invoicePdfData", () => {
  test("a record without a currency (as createInvoice gives today) is a USDC invoice: its URI asks for the total", () => {
    const data = invoicePdfData(record, lines, url);
    expect(data.currency).toBe("USDC");
    expect(data.paymentUri).toMatch(/&uint256=150000000$/);
    expect(invoicePdfData({ ...record, currency: "USDC" }, lines, url)).toEqual(data);
  });

  test("a stored row priced in EUR gives a document in EUR whose URI fixes no USDC amount", () => {
    const data = invoicePdfData({ ...record, currency: "EUR" }, lines, url);
    expect(data.currency).toBe("EUR");
    expect(data.totalAmount).toBe(150_000_000n);
    expect(data.paymentUri).not.toContain("uint256");
    expect(data.invoiceUrl).toBe(url);
  });
});
