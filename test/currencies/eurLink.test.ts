import type { Browser } from "playwright-core";
import type { Address } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { linkRequest } from "../links/fixtures.ts";
import { eurAt, eurStale } from "./eurInvoices.ts";

type Json = Record<string, unknown>;
type Link = { slug: string; payment_link: string; deposit_address: Address; currency: string };

/**
 * A payment link priced in EUR, on the real stack, from its creation through the API: its
 * checkout in a real browser (the page w.js frames) asks for the quote's USDC (and offers x402,
 * which asks for the same quote), paying exactly that confirms it even after the rate moved, and its detail
 * reads in euros with the USDC beside; while no fresh rate can be read the checkout asks nothing.
 */
describe("an EUR payment link", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let acme: Merchant;

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
    ]);
    acme = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await chain.revert();
  });
  afterEach(() => resetLocalFeeds(chain.url));

  const createEurLink = async (): Promise<Link> => {
    const response = await stack.request("/api/links", {
      method: "POST",
      headers: bearer(acme.key),
      // No redirect: the confirmed checkout stays on screen to be read.
      json: linkRequest({
        merchant_email: acme.email,
        merchant_name: "Acme Coffee",
        currency: "EUR",
        amount: "100.00",
        redirect_url: undefined,
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Link;
  };
  const detail = async (link: Link) => {
    const response = await stack.request(`/api/links/${link.slug}`, { headers: bearer(acme.key) });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };

  /** The detail's amounts of a 100.00 EUR link: received and due in euros, then in USDC. */
  const inEuros = (received: string, due: string, receivedUsdc: string, dueUsdc: string) => ({
    currency: "EUR",
    amount: "100.00",
    amount_received: received,
    amount_due: due,
    paid_amount_usdc: receivedUsdc,
    amount_due_usdc: dueUsdc,
  });

  test("its checkout asks for the quote's USDC; paying exactly that confirms it at the quoted rate, and its detail reads in euros", async () => {
    const link = await createEurLink();
    expect(link.currency).toBe("EUR");
    await eurAt(chain.url, "1.10");
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const response = await page.goto(link.payment_link);
    // Its x402 resource is offered: it asks for the same quote (test/payments/x402Payment).
    expect(response?.headers().link).toContain('rel="payment"');
    expect(await page.textContent(".amount")).toMatch(/100\.00 EUR/);
    expect(await page.textContent("[data-quote]")).toMatch(
      /100\.00 EUR = 110\.00 USDC at 1\.10000000 USDC per EUR/,
    );
    expect(await page.textContent("#pay-amount")).toBe("110.00");
    expect(await page.getAttribute("a[data-pay-uri]", "href")).toMatch(/uint256=110000000$/);
    expect(await page.locator(".qr svg").count()).toBe(1);
    await screenshot(page, "eur-link-checkout-phone");
    await page.setViewportSize({ width: 400, height: 600 });
    await screenshot(page, "eur-link-checkout-iframe");

    // The API's detail asks for the same quote, and its payment_uri for its USDC.
    const before = await detail(link);
    expect(before).toMatchObject({
      ...inEuros("0.00", "100.00", "0.00", "110.00"),
      quote_expires_at: expect.any(String),
    });
    expect(before.payment_uri).toMatch(/uint256=110000000$/);

    // The euro moves before the payment is mined: the quote holds.
    await eurAt(chain.url, "1.25");
    await chain.payUsdc(devAccount(6), link.deposit_address, 110_000_000n);
    await page.waitForSelector("#payment[data-state=confirmed]", { timeout: EVENT_MS });
    expect(await page.locator("#pay-amount").count()).toBe(0);
    expect(await page.textContent("body")).toContain("Payment confirmed");
    await screenshot(page, "eur-link-confirmed-iframe");
    await page.close();

    const after = await detail(link);
    expect(after).toMatchObject({
      status: "confirmed",
      ...inEuros("100.00", "0.00", "110.00", "0.00"),
    });
    expect(after.payments).toEqual([
      expect.objectContaining({
        amount: "110.00",
        counted: true,
        amount_in_currency: "100.00",
        rate: "1.10000000",
      }),
    ]);
    // Nothing is due in euros any more: x402 asks for nothing (it pays a link at its quote:
    // test/payments/x402Payment.test.ts).
    const x402 = await stack.request(`/api/x402/${link.slug}`);
    expect(x402.status).toBe(200);
    expect(await x402.json()).toMatchObject({ kind: "link", status: "paid" });
    const status = await stack.request(`/api/payments/status/${link.slug}`);
    expect(await status.json()).toMatchObject({ status: "confirmed", amount_usdc: "110.00" });
  });

  test("while no fresh rate can be read, its checkout says so and asks for nothing", async () => {
    const link = await createEurLink();
    await eurStale(chain.url, chain.client);
    const page = await browser.newPage({ viewport: { width: 400, height: 600 } });
    await page.goto(link.payment_link);
    expect(await page.textContent("[data-rate-unavailable]")).toMatch(/Rate unavailable/);
    expect(await page.locator("#pay-amount, .qr, a[data-pay-uri]").count()).toBe(0);
    await screenshot(page, "eur-link-rate-unavailable-iframe");
    await page.close();
    expect(await detail(link)).toMatchObject({
      amount_due: "100.00",
      amount_due_usdc: null,
      rate_unavailable: expect.any(String),
    });
  });
});
