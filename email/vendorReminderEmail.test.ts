import { describe, expect, test } from "vitest";
import { type VendorReminderEmailData, vendorReminderEmail } from "./vendorReminderEmail.ts";

/** Any amount followed by USDC: what a payer could read as the sum to send. */
const USDC_AMOUNT = /\d[\d,]*\.\d+\s*USDC/;

const data: VendorReminderEmailData = {
  invoiceNumber: "INV-0007",
  merchantName: "Acme Ltd",
  vendorName: "Globex",
  amountDue: 40_000_000n,
  totalAmount: 100_000_000n,
  currency: "GBP",
  dueDate: "2030-12-31",
  today: "2031-01-02",
  invoiceUrl: "https://pay.example/i/abc",
  depositAddress: "0x1111111111111111111111111111111111111111",
};

describe("a reminder of an invoice priced in a currency", () => {
  test("says what is still due, and what was received, in the currency", () => {
    const email = vendorReminderEmail(data);
    expect(email.subject).toBe("Reminder: invoice INV-0007 from Acme Ltd: 40.00 GBP overdue");
    expect(email.text).toContain("Still due: 40.00 GBP.");
    expect(email.text).toContain("received so far: 60.00 GBP of 100.00 GBP.");
    expect(email.html).toContain("<strong>40.00 GBP</strong>");
  });

  test("asks for no fixed USDC amount and sends the payer to the invoice page's quote", () => {
    const email = vendorReminderEmail(data);
    for (const body of [email.subject, email.text, email.html])
      expect(body).not.toMatch(USDC_AMOUNT);
    for (const body of [email.text, email.html]) {
      expect(body).toContain("Payable in USDC on Base (chain 8453) at the rate at payment");
      expect(body).toContain("held for 15 minutes once shown");
    }
    expect(email.text).toContain("View and pay it online: https://pay.example/i/abc");
    expect(email.html).toContain('href="https://pay.example/i/abc"');
  });

  test("a reminder of an invoice priced in USDC still says USDC", () => {
    const email = vendorReminderEmail({ ...data, currency: undefined });
    expect(email.text).toContain("Still due: 40.00 USDC.");
    expect(email.text).toContain("Pay in USDC on Base (chain 8453) to the invoice's own deposit");
  });
});
