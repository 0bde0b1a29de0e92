import { getMeta } from "unpdf";
import { describe, expect, test } from "vitest";
import { usdcPaymentUri } from "../domain/paymentUri.ts";
import { type InvoicePdfData, invoiceDocument, renderInvoicePdf } from "./invoiceDocument.ts";
import { renderPdf } from "./renderPdf.ts";

const data: InvoicePdfData = {
  invoiceNumber: "INV-0007",
  issueDate: "2026-11-01",
  dueDate: "2026-12-01",
  createdAt: new Date("2026-11-01T09:30:00.123Z"),
  merchant: { name: "Acme", address: "1 Road", email: "a@acme.example" },
  vendor: { name: "Globex", email: "ap@globex.example", address: null },
  lineItems: [
    { description: "Work", quantity: "2", unitPrice: 75_000_000n, lineTotal: 150_000_000n },
  ],
  totalAmount: 150_000_000n,
  notes: null,
  depositAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  paymentUri: usdcPaymentUri("0x8ba1f109551bD432803012645Ac136ddd64DBA72", 150_000_000n),
  invoiceUrl: "http://localhost:3000/i/abc",
};

describe("invoiceDocument", () => {
  test("the same record renders to the same bytes", async () => {
    const [a, b] = await Promise.all([
      renderPdf(invoiceDocument(data)),
      renderPdf(invoiceDocument(data)),
    ]);
    expect(a.equals(b)).toBe(true);
  });

  test("carries a QR code with the EIP-681 URI for the exact amount", () => {
    const json = JSON.stringify(invoiceDocument(data).content);
    expect(json).toContain(
      '"qr":"ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x8ba1f109551bD432803012645Ac136ddd64DBA72&uint256=150000000"',
    );
  });

  test("dates the PDF from the record, not the clock", async () => {
    const { info } = await getMeta(new Uint8Array(await renderPdf(invoiceDocument(data))));
    expect(info.CreationDate).toBe("D:20261101093000Z");
    expect(info.ModDate).toBe("D:20261101093000Z");
    expect(info.Title).toBe("Invoice INV-0007");
  });
});

describe("renderInvoicePdf", () => {
  test("renders every character class users type, CJK full-width forms included", async () => {
    for (const description of [
      "＞ ",
      "é ß ü",
      "中文 (test)",
      "🚀",
      "\u0000",
      "עברית",
      "Ελληνικά",
    ]) {
      const pdf = await renderInvoicePdf({
        ...data,
        lineItems: data.lineItems.map((line) => ({ ...line, description })),
      });
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    }
  });
});
