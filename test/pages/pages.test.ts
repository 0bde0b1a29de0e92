import type { Browser, Page } from "playwright-core";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startHostSite } from "../helpers/hostSite.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/** The hosted pages poll every 5 s (spec §4.6). */
const POLL_PERIOD_MS = 5_000;
/**
 * Once the service reports a payment, an open page shows it within one polling period, plus
 * its request and its render, which take seconds on a loaded machine rather than milliseconds.
 */
const PAGE_UPDATE_MS = POLL_PERIOD_MS + 3_000;

describe("hosted pages in a real browser", () => {
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

  const createLink = async (overrides: Json = {}) =>
    (await (
      await stack.request("/api/links", {
        method: "POST",
        json: {
          merchant_email: "shop@example.com",
          amount: "12.50",
          description: "Order #77 — 2 coffees",
          wallet_type: "managed",
          ...overrides,
        },
      })
    ).json()) as Json & {
      slug: string;
      deposit_address: Address;
      payment_link: string;
      iframe_snippet: string;
      js_widget_snippet: string;
    };
  /** Waits until the service itself reports `expected` for the slug (indexing takes its time). */
  const untilStatus = (slug: string, expected: string) =>
    expect
      .poll(
        async () =>
          ((await (await stack.request(`/api/payments/status/${slug}`)).json()) as Json).status,
        {
          timeout: EVENT_MS,
          interval: 50,
        },
      )
      .toBe(expected);
  const newPage = async (): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    page.on("dialog", () => {
      throw new Error("a dialog opened: injected script ran");
    });
    return page;
  };

  test("checkout: shows amount and address, then switches to confirmed without a reload", async () => {
    const link = await createLink();
    const page = await newPage();
    await page.goto(link.payment_link);
    await expect.poll(() => page.textContent("h1")).toBe("Order #77 — 2 coffees");
    expect(await page.textContent("#pay-amount")).toBe("12.50");
    expect(await page.textContent("#pay-address")).toBe(link.deposit_address);
    expect(await page.locator(".qr svg").count()).toBe(1);
    expect(await page.textContent(".warning")).toContain("USDC on Base (chain 8453) only");
    await screenshot(page, "checkout-pending");

    let navigations = 0;
    page.on("framenavigated", () => navigations++);
    await chain.payUsdc(devAccount(1), link.deposit_address, 12_500_000n);
    // Once the service knows, the open page shows it within one polling period (5 s).
    await untilStatus(link.slug, "confirmed");
    await page.waitForSelector("#payment[data-state=confirmed]", {
      timeout: PAGE_UPDATE_MS,
    });
    expect(await page.isVisible(".done")).toBe(true);
    expect(await page.isVisible(".paywith")).toBe(false);
    expect(navigations).toBe(0);
    await screenshot(page, "checkout-confirmed");
    await page.close();
  });

  test("checkout: says who is asking for the money: the link's merchant_name, else the name on the merchant's invoices", async () => {
    const page = await newPage();
    const named = await createLink({ merchant_name: "Corner Café <b>" });
    await page.goto(named.payment_link);
    expect(await page.textContent(".merchant")).toBe("Corner Café <b>");
    expect(await page.title()).toContain("to Corner Café <b>");

    const merchant = `named-${Date.now()}@example.com`;
    await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: merchant, merchant_name: "Bakery by Invoice" }),
    });
    const fromInvoice = await createLink({ merchant_email: merchant });
    await page.goto(fromInvoice.payment_link);
    expect(await page.textContent(".merchant")).toBe("Bakery by Invoice");

    const unknown = await createLink({ merchant_email: `unknown-${Date.now()}@example.com` });
    await page.goto(unknown.payment_link);
    expect(await page.locator(".merchant").count()).toBe(0);
    await page.close();
  });

  test("invoice page: items, total, pay block; paid in place; user strings rendered as text", async () => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        merchant_name: "<script>alert(1)</script> Bakery",
        vendor_name: '"><img src=x onerror=alert(2)>',
        line_items: [
          { description: "<b>bold</b> & <i>croissants</i>", quantity: 3, unit_price: "2.50" },
        ],
        notes: "</p><script>alert(3)</script>",
      }),
    });
    const invoice = (await response.json()) as {
      invoice_url: string;
      deposit_address: Address;
      slug: string;
    };
    const page = await newPage();
    await page.goto(invoice.invoice_url);
    expect(await page.textContent("h1")).toBe("<script>alert(1)</script> Bakery");
    expect(await page.textContent("tbody tr td")).toBe("<b>bold</b> & <i>croissants</i>");
    expect(await page.locator("main script, main img").count()).toBe(0);
    expect(await page.textContent(".total")).toContain("7.50");
    expect(await page.textContent("#pay-amount")).toBe("7.50");
    expect(await page.getAttribute("a[href$='/pdf']", "href")).toContain("/api/invoices/");
    await screenshot(page, "invoice-sent");

    await chain.payUsdc(devAccount(2), invoice.deposit_address, 5_000_000n);
    await untilStatus(invoice.slug, "partial");
    await page.waitForSelector("#payment[data-state=partial]", { timeout: PAGE_UPDATE_MS });
    expect(await page.textContent(".partialnote [data-field=due]")).toBe("2.50");
    expect(await page.textContent("#pay-amount")).toBe("2.50");
    await screenshot(page, "invoice-partial");
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 2_500_000n);
    await untilStatus(invoice.slug, "paid");
    await page.waitForSelector("#payment[data-state=paid]", { timeout: PAGE_UPDATE_MS });
    await screenshot(page, "invoice-paid");
    await page.close();
  });

  test("the JS widget on another origin opens the checkout and tells the page when it is paid", async () => {
    const link = await createLink({ amount: "3.00", description: "Widget order" });
    const site = await startHostSite(`<!doctype html><html><body><h1>Merchant shop</h1>
      <script>window.payments = []; document.addEventListener("remit:payment", function (e) { window.payments.push(e.detail); });</script>
      ${link.js_widget_snippet}</body></html>`);
    try {
      const page = await newPage();
      await page.goto(site.url);
      const button = page.locator("button[data-remit-button]");
      await button.waitFor();
      expect(await button.textContent()).toBe("Pay with USDC");
      await screenshot(page, "widget-button");
      await button.click();
      const frame = page.frameLocator("iframe[title='Pay with USDC']");
      // The click creates the frame, which only then loads: more than expect.poll's default 1 s
      // on a loaded machine.
      await expect
        .poll(() => frame.locator("h1").textContent(), { timeout: EVENT_MS })
        .toBe("Widget order");
      await screenshot(page, "widget-open");
      await chain.payUsdc(devAccount(3), link.deposit_address, 3_000_000n);
      await untilStatus(link.slug, "confirmed");
      await page.waitForFunction(
        () => (window as unknown as { payments: unknown[] }).payments.length > 0,
        undefined,
        { timeout: PAGE_UPDATE_MS },
      );
      const [detail] = await page.evaluate(
        () => (window as unknown as { payments: Json[] }).payments,
      );
      expect(detail).toMatchObject({
        type: "remit:payment",
        slug: link.slug,
        status: "confirmed",
        amount_usdc: "3.00",
      });
      await screenshot(page, "widget-confirmed");
      await page.close();
    } finally {
      await site.stop();
    }
  });

  test("the iframe snippet renders the checkout on another origin", async () => {
    const link = await createLink({ description: "Framed order" });
    const site = await startHostSite(
      `<!doctype html><html><body>${link.iframe_snippet}</body></html>`,
    );
    try {
      const page = await newPage();
      await page.goto(site.url);
      const frame = page.frameLocator("iframe");
      await expect.poll(() => frame.locator("h1").textContent()).toBe("Framed order");
      expect(await frame.locator("#pay-address").textContent()).toBe(link.deposit_address);
      await screenshot(page, "iframe-snippet");
      await page.close();
    } finally {
      await site.stop();
    }
  });

  test("the merchant portal shows the payment with its transaction; it refuses to be framed", async () => {
    const link = await createLink({ description: "Portal order" });
    const paid = await chain.payUsdc(devAccount(4), link.deposit_address, 12_500_000n);
    await untilStatus(link.slug, "confirmed");
    const page = await newPage();
    const response = await page.goto(link.merchant_portal as string);
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(await page.textContent("[data-field=received]")).toBe("12.50");
    // A local chain's transaction is on no public explorer: the hash, and no dead link.
    expect(await page.getAttribute(`[title="${paid.transactionHash}"]`, "title")).toBe(
      paid.transactionHash,
    );
    expect(await page.locator('a[href*="/tx/"]').count()).toBe(0);
    await screenshot(page, "merchant-portal");
    await page.close();
  });

  test("unknown slugs get a 404 page", async () => {
    const page = await newPage();
    for (const path of ["/pay/nosuchslug1", "/i/nosuchslug1", "/merchant/nosuchslug1"]) {
      const response = await page.goto(`${stack.api.url}${path}`);
      expect(response?.status()).toBe(404);
      expect(await page.textContent("h1")).toBe("Not found");
    }
    await page.close();
  });
});
