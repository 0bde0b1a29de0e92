import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { usdcToBaseUnits } from "../../domain/money.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { createEurInvoice, eurAt, eurStale } from "./eurInvoices.ts";

/**
 * The hosted page of an invoice priced in EUR, in a real browser on the real stack: it asks for
 * the quote's USDC (copy field, QR code, wallet link), reads in euros, asks anew for the rest
 * after a partial payment, and asks for nothing while no fresh rate can be read. x402 and the
 * gasless route ask for the same quote (test/payments/x402Payment, test/pages/walletCheckout).
 */
describe("an EUR invoice's hosted page", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await chain.revert();
  });
  afterEach(() => resetLocalFeeds(chain.url));

  test("asks for the quote in USDC, reads in euros, asks anew for the rest after a partial payment, and shows paid", async () => {
    const invoice = await createEurInvoice(stack);
    await eurAt(chain.url, "1.10");
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const response = await page.goto(invoice.invoice_url);
    // Its x402 resource is offered (it asks for the same quote: test/payments/x402Payment).
    expect(response?.headers().link).toContain('rel="payment"');
    expect(await page.textContent(".total")).toContain("Total (EUR)");
    expect(await page.textContent("[data-quote]")).toMatch(
      /100\.00 EUR = 110\.00 USDC at 1\.10000000 USDC per EUR/,
    );
    expect(await page.textContent("#pay-amount")).toBe("110.00");
    expect(await page.getAttribute("a[data-pay-uri]", "href")).toMatch(/uint256=110000000$/);
    expect(await page.locator(".qr svg").count()).toBe(1);
    await screenshot(page, "eur-invoice-sent-phone");

    // 44 USDC (not the quote) at its block's 1.10 is 40 EUR: partial, and the page asks anew
    // for the rest, 60 EUR, at the rate of the moment.
    await chain.payUsdc(devAccount(6), invoice.deposit_address, 44_000_000n);
    await eurAt(chain.url, "1.25");
    await page.waitForSelector("#payment[data-state=partial]", { timeout: EVENT_MS });
    expect(await page.textContent(".partialnote")).toMatch(
      /Received 40\.00 EUR; still due 60\.00 EUR/,
    );
    expect(await page.textContent("#pay-amount")).toMatch(/^(66\.00|75\.00)$/);
    const rest = (await page.textContent("#pay-amount")) as string;
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "eur-invoice-partial-desktop");

    await chain.payUsdc(devAccount(6), invoice.deposit_address, usdcToBaseUnits(rest));
    await page.waitForSelector("#payment[data-state=paid]", { timeout: EVENT_MS });
    expect(await page.locator("#pay-amount").count()).toBe(0);
    await page.close();
  });

  test("while no fresh rate can be read, the page says so and asks for nothing", async () => {
    const invoice = await createEurInvoice(stack);
    await eurStale(chain.url, chain.client);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(invoice.invoice_url);
    expect(await page.textContent("[data-rate-unavailable]")).toMatch(/Rate unavailable/);
    expect(await page.locator("#pay-amount, .qr, a[data-pay-uri]").count()).toBe(0);
    await screenshot(page, "eur-invoice-rate-unavailable-phone");
    await page.close();
  });
});
