import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, test } from "vitest";
import { usdcPaymentUri } from "../domain/paymentUri.ts";
import { type InvoicePdfData, invoiceDocument, renderInvoicePdf } from "./invoiceDocument.ts";
import { sampleInvoice } from "./sampleInvoice.ts";

/**
 * The sample invoice priced in EUR (whole cents, as a currency's amounts are), as
 * app/invoices/invoicePdfData.ts makes it: no amount in its URI.
 */
const eurInvoice: InvoicePdfData = {
  ...sampleInvoice,
  currency: "EUR",
  lineItems: [
    { description: "Design work", quantity: "2", unitPrice: 75_000_000n, lineTotal: 150_000_000n },
    { description: "Hosting", quantity: "1", unitPrice: 12_500_000n, lineTotal: 12_500_000n },
  ],
  totalAmount: 162_500_000n,
  paymentUri: usdcPaymentUri(sampleInvoice.depositAddress as `0x${string}`, null),
};

/** Every string of a pdfmake content tree, in order. */
function strings(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (Array.isArray(node)) return node.flatMap(strings);
  if (node && typeof node === "object")
    return Object.entries(node).flatMap(([key, value]) =>
      key === "qr" || key === "link" ? [] : strings(value),
    );
  return [];
}

/** Every QR code's content in a pdfmake content tree. */
function qrCodes(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(qrCodes);
  if (node && typeof node === "object") {
    const own = "qr" in node && typeof node.qr === "string" ? [node.qr] : [];
    return [...own, ...Object.values(node).flatMap(qrCodes)];
  }
  return [];
}

describe("the document of an invoice priced in a currency", () => {
  const content = invoiceDocument(eurInvoice).content;
  const text = strings(content).join("");

  test("labels its amounts and total in the currency", () => {
    expect(text).toContain("162.50 EUR");
    expect(text).toContain("Total (EUR)");
    expect(text).toContain("Unit price (EUR)");
    expect(text).toContain("Amount (EUR)");
    expect(text).not.toContain("Total (USDC)");
  });

  test("asks for no fixed USDC amount: payable at the rate at payment, the page quotes it", () => {
    expect(text).not.toMatch(/[\d.,]+ USDC/);
    expect(text).not.toContain("Send exactly");
    expect(text).toContain("payable in USDC at the rate at the time of payment");
    expect(text).toContain("Chainlink's EUR / USD and USDC / USD price feeds on Base");
    expect(text).toContain("held for 15 minutes");
    expect(text).toContain(eurInvoice.invoiceUrl);
    expect(text).toContain(eurInvoice.depositAddress);
  });

  test("its QR code is the invoice page, never a payment URI with an amount", () => {
    expect(qrCodes(content)).toEqual([eurInvoice.invoiceUrl]);
    expect(JSON.stringify(content)).not.toContain("uint256=");
  });

  test("a USD invoice names the one feed its rate reads", () => {
    const usd = strings(invoiceDocument({ ...eurInvoice, currency: "USD" }).content).join("");
    expect(usd).toContain("Total (USD)");
    expect(usd).toContain("Chainlink's USDC / USD price feed on Base");
  });

  test("a credit note of it credits in the currency and has no payment block", () => {
    const note = strings(
      invoiceDocument({
        ...eurInvoice,
        creditNote: { creditsInvoice: "INV-0001", reason: "Hosting refunded" },
      }).content,
    ).join("");
    expect(note).toContain("Total credited (EUR)");
    expect(note).toContain("162.50 EUR");
    expect(note).not.toContain("USDC");
  });

  test("renders, and its text reads as the document says", async () => {
    const pdf = await renderInvoicePdf(eurInvoice);
    const { text: rendered } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), {
      mergePages: true,
    });
    for (const expected of ["Total (EUR)", "162.50 EUR", "Scan for the USDC amount"])
      expect(rendered).toContain(expected);
    expect(rendered).not.toMatch(/[\d.,]+ USDC/);
  });
});

describe("the document of an invoice priced in USDC", () => {
  test("is as before: the total in USDC, and its QR code the payment URI for exactly it", () => {
    const content = invoiceDocument(sampleInvoice).content;
    const text = strings(content).join("");
    expect(text).toContain("Total (USDC)");
    expect(text).toContain("Send exactly 150.125 USDC");
    expect(text).not.toContain("(EUR)");
    expect(qrCodes(content)).toEqual([sampleInvoice.paymentUri]);
    expect(sampleInvoice.paymentUri).toContain("uint256=150125000");
    // The currency stated or not, the same document.
    expect(JSON.stringify(invoiceDocument({ ...sampleInvoice, currency: "USDC" }))).toBe(
      JSON.stringify(invoiceDocument(sampleInvoice)),
    );
  });
});
