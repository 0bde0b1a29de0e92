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

/** A phone and a desktop: every page of this file is looked at in both. */
const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
type Size = keyof typeof VIEWPORTS;
const SIZES = Object.keys(VIEWPORTS) as Size[];

/** A poll period of the page (5 s), its request and render on a loaded machine. */
const PAGE_UPDATE_MS = 10_000;

describe("a merchant's first day: what the pages tell payers and the developer", () => {
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
    (await (await stack.request(path, { method: "POST", json })).json()) as Json & {
      slug: string;
      deposit_address: Address;
    };
  const untilStatus = (slug: string, expected: string) =>
    expect
      .poll(
        async () =>
          ((await (await stack.request(`/api/payments/status/${slug}`)).json()) as Json).status,
        { timeout: EVENT_MS, interval: 100 },
      )
      .toBe(expected);
  const open = async (size: Size, url: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: VIEWPORTS[size] });
    await page.goto(url);
    return page;
  };
  /** Nothing wider than the viewport: no sideways scrolling. */
  const noSidewaysScroll = async (page: Page) =>
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);

  test("an overpaid invoice tells the payer how much too much arrived and that the merchant can refund it", async () => {
    const invoice = await post(
      "/api/invoices",
      invoiceRequest({
        line_items: [{ description: "Design work", quantity: 1, unit_price: "100.00" }],
      }),
    );
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 130_000_000n);
    await untilStatus(invoice.slug, "excess");
    for (const size of SIZES) {
      const page = await open(size, invoice.invoice_url as string);
      const note = page.locator(".excessnote");
      expect(await note.isVisible(), size).toBe(true);
      const text = (await note.textContent()) ?? "";
      expect(text).toContain("You paid 30.00 USDC more than the total of 100.00 USDC");
      expect(text).toMatch(/can refund it/);
      expect(text).not.toMatch(/will refund/);
      await noSidewaysScroll(page);
      await screenshot(page, `firstday-invoice-excess-${size}`);
      await page.close();
    }
  });

  test("an overpaid payment link's checkout says the same", async () => {
    const link = await post("/api/links", {
      merchant_email: "shop@example.com",
      merchant_name: "Corner Café",
      amount: "12.50",
      description: "Order #78",
      wallet_type: "managed",
    });
    // The open page learns it by polling, without a reload.
    const page = await open("phone", link.payment_link as string);
    expect(await page.isVisible(".excessnote")).toBe(false);
    await chain.payUsdc(devAccount(2), link.deposit_address, 15_000_000n);
    await untilStatus(link.slug, "excess");
    await page.waitForSelector("#payment[data-state=excess]", { timeout: PAGE_UPDATE_MS });
    expect(await page.textContent(".excessnote")).toContain(
      "You paid 2.50 USDC more than the total of 12.50 USDC",
    );
    await page.close();
    for (const size of SIZES) {
      const loaded = await open(size, link.payment_link as string);
      expect(await loaded.isVisible(".excessnote")).toBe(true);
      expect(await loaded.textContent(".excessnote")).toContain("2.50 USDC more");
      await screenshot(loaded, `firstday-checkout-excess-${size}`);
      await loaded.close();
    }
  });

  test("an unpaid invoice says nothing of an overpayment, and its total is written once on a phone", async () => {
    const invoice = await post("/api/invoices", invoiceRequest());
    for (const size of SIZES) {
      const page = await open(size, invoice.invoice_url as string);
      expect(await page.isVisible(".excessnote")).toBe(false);
      // The visible text of the page, as read: "Total" once in the items (the pay box says
      // "Amount (USDC)").
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point
      const visible = await page.evaluate(() => document.body.innerText);
      expect(visible.match(/\bTotal\b/g)?.length, `${size}: ${visible}`).toBe(1);
      await noSidewaysScroll(page);
      await screenshot(page, `firstday-invoice-${size}`);
      await page.close();
    }
  });

  test("the widget's modal: the wallet-app button on a phone only, and the whole checkout reachable on a desktop", async () => {
    const link = await post("/api/links", {
      merchant_email: "shop@example.com",
      amount: "3.00",
      description: "Widget order",
      wallet_type: "managed",
    });
    const site = await startHostSite(`<!doctype html><html><body><h1>Merchant shop</h1>
      ${link.js_widget_snippet as string}</body></html>`);
    try {
      for (const size of SIZES) {
        const page = await open(size, site.url);
        await page.locator("button[data-remit-button]").click();
        const frame = page.frameLocator("iframe[title='Pay with USDC']");
        await expect
          .poll(() => frame.locator("h1").textContent(), { timeout: EVENT_MS })
          .toBe("Widget order");
        // The phone's button opens a wallet app; a desktop has none to open.
        expect(await frame.locator("a.deeplink").isVisible(), size).toBe(size === "phone");
        // "Paid but not showing?" can be scrolled to inside the frame and is shown whole.
        const summary = frame.locator(".paidcheck summary");
        await summary.scrollIntoViewIfNeeded();
        expect(await summary.isVisible()).toBe(true);
        const [frameBox, summaryBox] = await Promise.all([
          page.locator("iframe[title='Pay with USDC']").boundingBox(),
          summary.boundingBox(),
        ]);
        expect(frameBox).not.toBeNull();
        expect(summaryBox).not.toBeNull();
        if (frameBox && summaryBox) {
          expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual(
            frameBox.y + frameBox.height,
          );
          expect(summaryBox.y).toBeGreaterThanOrEqual(frameBox.y);
        }
        // A desktop has the room to show the checkout without a scroll bar in the frame.
        if (size === "desktop") {
          const inner = page.frames().find((f) => f.url().includes("/pay/"));
          expect(
            await inner?.evaluate(
              () => document.documentElement.scrollHeight <= window.innerHeight,
            ),
          ).toBe(true);
        }
        await screenshot(page, `firstday-widget-${size}`);
        await page.close();
      }
    } finally {
      await site.stop();
    }
  });

  test("every page has an icon, and /favicon.ico answers", async () => {
    for (const path of ["/favicon.ico", "/favicon.svg"]) {
      const response = await stack.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      expect(await response.text()).toMatch(/^<svg /);
    }
    const invoice = await post("/api/invoices", invoiceRequest());
    const page = await open("desktop", invoice.invoice_url as string);
    expect(await page.getAttribute("link[rel=icon]", "href")).toBe("/favicon.svg");
    await page.close();
  });

  test("/dev/outbox in a browser is a page: the list, each message's HTML sandboxed, its text and attachments; JSON for everyone else", async () => {
    const invoice = await post(
      "/api/invoices",
      invoiceRequest({ vendor_email: "outbox-vendor@example.com" }),
    );
    // The vendor's invoice email, with its PDF attached.
    let sent: Awaited<ReturnType<typeof stack.outbox>> = [];
    await expect
      .poll(
        async () => {
          sent = (await stack.outbox()).filter((m) => m.to.includes("outbox-vendor@example.com"));
          return sent.length;
        },
        { timeout: EVENT_MS, interval: 200 },
      )
      .toBe(1);
    const [email] = sent;
    if (!email) throw new Error("no email");
    expect(email.attachments.length).toBeGreaterThan(0);

    // JSON exactly as before, without an Accept header and with application/json.
    for (const accept of [undefined, "application/json", "*/*"]) {
      const response = await fetch(`${stack.api.opsUrl}/dev/outbox`, {
        headers: accept ? { accept } : {},
      });
      expect(response.headers.get("content-type"), accept).toMatch(/^application\/json/);
      const body = (await response.json()) as { messages: Json[] };
      expect(body.messages.find((m) => m.id === email.id)).toMatchObject({
        id: email.id,
        subject: email.subject,
      });
    }

    for (const size of SIZES) {
      const page = await open(size, `${stack.api.opsUrl}/dev/outbox`);
      expect(await page.title()).toMatch(/^Outbox/);
      const row = page.locator("tbody tr", { hasText: "outbox-vendor@example.com" });
      expect(await row.locator("td").nth(2).textContent()).toBe(email.subject);
      const article = page.locator(`article#m-${email.id}`);
      const frame = article.locator("iframe");
      expect(await frame.getAttribute("sandbox")).toBe(
        "allow-popups allow-popups-to-escape-sandbox",
      );
      await frame.scrollIntoViewIfNeeded();
      // The email's HTML renders inside the frame (its invoice number is in it).
      await expect
        .poll(
          () =>
            page
              .frameLocator(`article#m-${email.id} iframe`)
              .locator("body")
              .textContent({ timeout: 5_000 }),
          { timeout: EVENT_MS },
        )
        .toContain(invoice.invoice_number as string);
      expect(await article.locator("pre").textContent()).toBe(email.text);
      const attachment = article.locator("a[download]").first();
      expect(await attachment.textContent()).toBe(email.attachments[0]?.filename);
      await noSidewaysScroll(page);
      await screenshot(page, `firstday-outbox-${size}`);
      if (size === "desktop") {
        const [download] = await Promise.all([page.waitForEvent("download"), attachment.click()]);
        const stream = await download.createReadStream();
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).toString("base64")).toBe(email.attachments[0]?.content);
      }
      await page.close();
    }

    // The HTML body's own route: sandboxed and fetching nothing even when opened directly.
    const html = await fetch(`${stack.api.opsUrl}/dev/outbox/${email.id}/html`);
    const csp = html.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/(^|; )sandbox allow-popups allow-popups-to-escape-sandbox(;|$)/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src/);
  });
});
