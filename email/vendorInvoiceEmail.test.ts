import { describe, expect, test } from "vitest";
import { type VendorInvoiceEmailData, vendorInvoiceEmail } from "./vendorInvoiceEmail.ts";

/** Any amount followed by USDC: what a payer could read as the sum to send. */
const USDC_AMOUNT = /\d[\d,]*\.\d+\s*USDC/;

const data: VendorInvoiceEmailData = {
  invoiceNumber: "INV-0007",
  merchantName: "Acme GmbH",
  vendorName: "Globex",
  totalAmount: 100_000_000n,
  currency: "EUR",
  dueDate: "2030-12-31",
  invoiceUrl: "https://pay.example/i/abc",
  depositAddress: "0x1111111111111111111111111111111111111111",
};

describe("the vendor's invoice email of an invoice priced in a currency", () => {
  test("names the amount in the currency, in the subject, the text and the HTML", () => {
    const email = vendorInvoiceEmail(data);
    expect(email.subject).toBe("Invoice INV-0007 from Acme GmbH: 100.00 EUR due 2030-12-31");
    expect(email.text).toContain("invoice INV-0007 for 100.00 EUR, due 2030-12-31");
    expect(email.html).toContain("<strong>100.00 EUR</strong>");
  });

  test("asks for no fixed USDC amount: payable in USDC at the rate at payment, the page's quote held 15 minutes", () => {
    const email = vendorInvoiceEmail(data);
    for (const body of [email.subject, email.text, email.html]) {
      expect(body).not.toMatch(USDC_AMOUNT);
      expect(body).not.toContain("100.00 USDC");
    }
    for (const body of [email.text, email.html]) {
      expect(body).toContain("Payable in USDC on Base (chain 8453) at the rate at payment");
      expect(body).toContain("the invoice page shows the USDC amount to send for the EUR due");
      expect(body).toContain("held for 15 minutes once shown");
    }
  });

  test("links the invoice page, where the USDC to send is quoted", () => {
    const email = vendorInvoiceEmail(data);
    expect(email.text).toContain("View and pay it online: https://pay.example/i/abc");
    expect(email.html).toContain('href="https://pay.example/i/abc"');
  });

  test("an invoice priced in USDC still asks for its amount in USDC", () => {
    const email = vendorInvoiceEmail({ ...data, currency: "USDC" });
    expect(email.subject).toBe("Invoice INV-0007 from Acme GmbH: 100.00 USDC due 2030-12-31");
    expect(email.text).toContain("Pay in USDC on Base (chain 8453) to the invoice's own deposit");
    expect(email.text).not.toContain("rate at payment");
    expect(vendorInvoiceEmail({ ...data, currency: undefined })).toEqual(email);
  });
});
