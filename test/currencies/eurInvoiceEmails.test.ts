import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { createEurInvoice, eurAt } from "./eurInvoices.ts";

/** Any amount followed by USDC: what a payer could read as the sum to send. */
const USDC_AMOUNT = /\d[\d,]*\.\d+\s*USDC/;

/**
 * The emails the worker composes (app/email/composeEmail.ts) for an invoice of 100.00 EUR, on
 * the real stack: the vendor's, from the invoice's row, and the merchant's payment notice, from
 * the payment event and the USDC that arrived. The worker starts once the invoice is priced in
 * EUR in the database (eurInvoices.ts), so its queued email is composed from the EUR row.
 */
describe("the emails of an invoice priced in EUR", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let worker: TestProcess | undefined;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ indexer: true });
  });
  afterAll(async () => {
    await worker?.stop();
    await stack?.stop();
    await chain.revert();
  });
  afterEach(() => resetLocalFeeds(chain.url));

  test("the vendor is asked for 100.00 EUR through the invoice page; the merchant told 100.00 EUR (110.00 USDC)", async () => {
    const invoice = await createEurInvoice(stack);
    worker = stack.startWorker();

    const vendor = await stack.waitForEmail((email) => email.subject.startsWith("Invoice "));
    expect(vendor.subject).toMatch(/: 100\.00 EUR due \d{4}-\d{2}-\d{2}$/);
    for (const body of [vendor.subject, vendor.text ?? "", vendor.html ?? ""]) {
      expect(body).not.toMatch(USDC_AMOUNT);
      expect(body).not.toContain("x402");
    }
    expect(vendor.text).toContain("for 100.00 EUR, due");
    expect(vendor.text).toContain("at the rate at payment");
    expect(vendor.text).toContain(`View and pay it online: ${invoice.invoice_url}`);
    expect(vendor.html).toContain(`href="${invoice.invoice_url}"`);

    await eurAt(chain.url, "1.10");
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 110_000_000n);
    const merchant = await stack.waitForEmail((email) => email.subject.includes("paid in full"));
    expect(merchant.subject).toMatch(/is paid in full: 100\.00 EUR \(110\.00 USDC\) received$/);
    expect(merchant.text).toContain("Invoice total: 100.00 EUR");
    expect(merchant.text).toContain("Received so far: 100.00 EUR (110.00 USDC)");
    expect(merchant.text).toContain("Nothing is due.");
  });
});
