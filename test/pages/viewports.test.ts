import type { Browser, Page } from "playwright-core";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/** The widths people look at: a phone, the recommended checkout iframe, a desktop. */
const VIEWPORTS = {
  phone: { width: 420, height: 900 },
  iframe: { width: 400, height: 600 },
  desktop: { width: 1280, height: 900 },
} as const;

type Created = { slug: string; deposit_address: Address; url: string };

describe("every hosted page at phone, iframe and desktop size", () => {
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

  const post = async (path: string, json: unknown) =>
    (await (await stack.request(path, { method: "POST", json })).json()) as Record<string, string>;
  const createInvoice = async (): Promise<Created> => {
    const body = await post(
      "/api/invoices",
      invoiceRequest({ merchant_name: "Acme Design Studio" }),
    );
    return {
      slug: body.slug ?? "",
      deposit_address: body.deposit_address as Address,
      url: body.invoice_url ?? "",
    };
  };
  const createLink = async (): Promise<Created & { portal: string }> => {
    const body = await post("/api/links", {
      merchant_email: "shop@example.com",
      merchant_name: "Corner Café",
      amount: "12.50",
      description: "Order #77 — 2 coffees",
      wallet_type: "managed",
    });
    return {
      slug: body.slug ?? "",
      deposit_address: body.deposit_address as Address,
      url: body.payment_link ?? "",
      portal: body.merchant_portal ?? "",
    };
  };
  const untilStatus = (slug: string, expected: string) =>
    expect
      .poll(
        async () =>
          (
            (await (await stack.request(`/api/payments/status/${slug}`)).json()) as {
              status: string;
            }
          ).status,
        {
          timeout: EVENT_MS,
          interval: 50,
        },
      )
      .toBe(expected);

  /** Opens `url` at each size, checks nothing overflows sideways, and screenshots it. */
  async function atEverySize(
    name: string,
    url: string,
    check?: (page: Page, size: keyof typeof VIEWPORTS) => Promise<void>,
  ) {
    for (const [size, viewport] of Object.entries(VIEWPORTS) as [
      keyof typeof VIEWPORTS,
      (typeof VIEWPORTS)[keyof typeof VIEWPORTS],
    ][]) {
      const page = await browser.newPage({ viewport });
      try {
        await page.goto(url);
        // No horizontal scrolling: long hashes and addresses wrap inside their boxes.
        const overflow = await page.evaluate(() => {
          const wide = Array.from(document.querySelectorAll("main *")).filter(
            (e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5,
          );
          return wide.map((e) => `${e.tagName}.${e.className}`);
        });
        expect(overflow, `${name} at ${size}`).toEqual([]);
        await check?.(page, size);
        await screenshot(page, `${name}-${size}`);
      } finally {
        await page.close();
      }
    }
  }

  /** Whether the element's box ends within the first screen (the fold). */
  const aboveFold = async (page: Page, selector: string) => {
    const box = await page.locator(selector).boundingBox();
    const height = page.viewportSize()?.height ?? 0;
    return box !== null && box.y + box.height <= height;
  };

  test("checkout: in the 400×600 iframe the amount, address, QR code and network warning fit the first screen", async () => {
    const link = await createLink();
    await atEverySize("checkout-pending", link.url, async (page, size) => {
      if (size !== "iframe") return;
      for (const selector of ["#pay-amount", "#pay-address", ".qr svg", ".warning"])
        expect(await aboveFold(page, selector), `${selector} above the fold`).toBe(true);
    });
    await chain.payUsdc(devAccount(1), link.deposit_address, 12_500_000n);
    await untilStatus(link.slug, "confirmed");
    await atEverySize("checkout-confirmed", link.url, async (page) => {
      expect(await page.isVisible(".done")).toBe(true);
    });
    await atEverySize("merchant-portal", link.portal);
  });

  test("invoice page: sent, partly paid and paid", async () => {
    const invoice = await createInvoice();
    await atEverySize("invoice-sent", invoice.url);
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 50_000_000n);
    await untilStatus(invoice.slug, "partial");
    await atEverySize("invoice-partial", invoice.url);
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 100_125_000n);
    await untilStatus(invoice.slug, "paid");
    await atEverySize("invoice-paid", invoice.url, async (page) => {
      expect(await page.isVisible(".done")).toBe(true);
      // Settled: no payment request left on the page, not even one hidden by CSS.
      expect(await page.locator(".paywith, .qr").count()).toBe(0);
      expect(await page.content()).not.toContain("ethereum:");
    });
  });

  test("not found", async () => {
    await atEverySize("not-found", `${stack.api.url}/i/nosuchslug1`);
  });
});
