import { describe, expect, test } from "vitest";
import { type MerchantPaymentEmailData, merchantPaymentEmail } from "./merchantPaymentEmail.ts";

const txHash = `0x${"ab".repeat(32)}`;
const data: MerchantPaymentEmailData = {
  type: "invoice.paid",
  invoiceNumber: "INV-0001",
  vendorName: "Globex",
  totalAmount: 150_000_000n,
  credited: 0n,
  received: 150_000_000n,
  status: "paid",
  txHash,
  explorerUrl: "https://basescan.org",
  invoiceUrl: "https://pay.example/i/abc",
};

describe("the merchant's payment email", () => {
  test("what is still due is the API's amount_due: nothing once paid within the tolerance", () => {
    const tolerated = merchantPaymentEmail({ ...data, received: 149_950_000n });
    expect(tolerated.text).toContain("Nothing is due.");
    const partial = merchantPaymentEmail({
      ...data,
      type: "invoice.partial",
      status: "partial",
      received: 100_000_000n,
    });
    expect(partial.text).toContain("Still due: 50.00 USDC");
    const excess = merchantPaymentEmail({
      ...data,
      type: "invoice.excess",
      status: "excess",
      received: 180_000_000n,
    });
    expect(excess.text).toContain("Received in excess: 30.00 USDC");
  });

  test("links the transaction on the configured explorer", () => {
    const email = merchantPaymentEmail(data);
    expect(email.text).toContain(`View on the block explorer: https://basescan.org/tx/${txHash}`);
    expect(email.html).toContain(`href="https://basescan.org/tx/${txHash}"`);
  });

  test("without an explorer (a local chain), shows the hash and links nowhere", () => {
    const email = merchantPaymentEmail({ ...data, explorerUrl: null });
    expect(email.text).toContain(`Transaction: ${txHash}`);
    expect(email.text).not.toContain("explorer");
    expect(email.html).toContain(`<code>${txHash}</code>`);
    expect(email.html).not.toContain("/tx/");
  });

  test("an overpayment says how much too much arrived and how to refund it", () => {
    const id = "9b2f7c1e-0000-4000-8000-000000000001";
    const email = merchantPaymentEmail({
      ...data,
      type: "invoice.excess",
      received: 180_000_000n,
      invoiceId: id,
    });
    expect(email.subject).toBe("INV-0001 was overpaid: 180.00 USDC received");
    expect(email.text).toContain("Received in excess: 30.00 USDC");
    expect(email.text).toContain("The payer sent 30.00 USDC more than the invoice total");
    expect(email.text).toContain(`https://pay.example/dashboard/invoices/${id}`);
    expect(email.text).toContain(`POST /api/invoices/${id}/refunds`);
    expect(email.html).toContain(`href="https://pay.example/dashboard/invoices/${id}"`);
    expect(email.html).toContain(`POST /api/invoices/${id}/refunds`);
  });

  test("a payment in full says nothing of refunds", () => {
    const email = merchantPaymentEmail({ ...data, invoiceId: "x" });
    expect(email.text).not.toMatch(/refund/i);
  });
});

describe("the merchant's payment email of an invoice priced in a currency", () => {
  const eur: MerchantPaymentEmailData = {
    ...data,
    totalAmount: 100_000_000n,
    received: 100_000_000n,
    priced: { currency: "EUR", receivedUsdc: 110_000_000n },
  };

  test("says what the payment counted for in the currency and the USDC that arrived", () => {
    const email = merchantPaymentEmail(eur);
    expect(email.subject).toBe("INV-0001 is paid in full: 100.00 EUR (110.00 USDC) received");
    expect(email.text).toContain("Invoice total: 100.00 EUR");
    expect(email.text).toContain("Received so far: 100.00 EUR (110.00 USDC)");
    expect(email.text).toContain("Nothing is due.");
    expect(email.html).toContain("<td>100.00 EUR</td>");
    expect(email.html).toContain("<strong>100.00 EUR (110.00 USDC)</strong>");
  });

  test("what is still due, or in excess, is in the currency", () => {
    const partial = merchantPaymentEmail({
      ...eur,
      type: "invoice.partial",
      status: "partial",
      received: 60_000_000n,
      priced: { currency: "EUR", receivedUsdc: 66_000_000n },
    });
    expect(partial.text).toContain("Still due: 40.00 EUR");
    const excess = merchantPaymentEmail({
      ...eur,
      type: "invoice.excess",
      status: "excess",
      received: 120_000_000n,
      priced: { currency: "EUR", receivedUsdc: 132_000_000n },
    });
    expect(excess.text).toContain("Received in excess: 20.00 EUR");
    expect(excess.text).toContain("The payer sent 20.00 EUR more than the invoice total");
  });
});
