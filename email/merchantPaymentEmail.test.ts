import { describe, expect, test } from "vitest";
import { type MerchantPaymentEmailData, merchantPaymentEmail } from "./merchantPaymentEmail.ts";

const txHash = `0x${"ab".repeat(32)}`;
const data: MerchantPaymentEmailData = {
  type: "invoice.paid",
  invoiceNumber: "INV-0001",
  vendorName: "Globex",
  totalAmount: 150_000_000n,
  received: 150_000_000n,
  txHash,
  explorerUrl: "https://basescan.org",
  invoiceUrl: "https://pay.example/i/abc",
};

describe("the merchant's payment email", () => {
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
});
