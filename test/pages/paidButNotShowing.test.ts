import type { Browser, Page } from "playwright-core";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { deployOtherToken, sendTokenTransfer } from "../helpers/otherToken.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

const WIDTHS = { phone: { width: 420, height: 900 }, desktop: { width: 1280, height: 900 } };

type Created = { slug: string; url: string; deposit_address: Address; invoice_number?: string };

/**
 * The "Paid but not showing?" box of the invoice and checkout pages, in Chromium: a payer
 * pastes a transaction hash and reads the answer in plain words, with JavaScript or without,
 * under the pages' strict CSP (any violation would be a console error).
 */
describe('"Paid but not showing?" on the hosted pages', () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true, env: { CONFIRMATIONS: "3" } }),
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
      url: body.invoice_url ?? "",
      deposit_address: body.deposit_address as Address,
      invoice_number: body.invoice_number ?? "",
    };
  };

  /**
   * Opens `url` at `viewport` (JavaScript on or off), opens the box, pastes `hash`, submits,
   * and returns the verdict's text; nothing overflows sideways and no CSP error is logged.
   */
  async function check(
    url: string,
    hash: string,
    options: { viewport?: { width: number; height: number }; shot?: string; js?: boolean } = {},
  ): Promise<string> {
    const context = await browser.newContext({
      viewport: options.viewport ?? WIDTHS.desktop,
      javaScriptEnabled: options.js ?? true,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      // A CSP violation is logged as "Refused to …" (a missing favicon's 404 is no concern here).
      if (message.type() === "error" && /Refused|Content Security Policy/i.test(message.text()))
        errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      const response = await page.goto(url);
      expect(response?.headers()["content-security-policy"]).toContain("form-action 'self'");
      // Closed until asked.
      expect(await page.locator("#paid-check").getAttribute("open")).toBeNull();
      await page.locator("#paid-check summary").click();
      await page.fill("#paid-check-tx", hash);
      await Promise.all([
        page.waitForURL(/[?&]tx=/),
        page.click("#paid-check button[type=submit]"),
      ]);
      const verdict = page.locator(".paidverdict");
      await verdict.waitFor();
      expect(await page.locator("#paid-check").getAttribute("open")).not.toBeNull();
      expect(await page.inputValue("#paid-check-tx")).toBe(hash);
      expect(await overflowing(page)).toEqual([]);
      if (options.shot) await screenshot(page, options.shot);
      expect(errors).toEqual([]);
      return ((await verdict.textContent()) ?? "").replace(/\s+/g, " ");
    } finally {
      await context.close();
    }
  }
  const overflowing = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll("main *"))
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => `${e.tagName}.${e.className}`),
    );
  const atBothWidths = async (url: string, hash: string, name: string) => {
    const phone = await check(url, hash, { viewport: WIDTHS.phone, shot: `${name}-420` });
    const desktop = await check(url, hash, { viewport: WIDTHS.desktop, shot: `${name}-1280` });
    expect(phone).toBe(desktop);
    return desktop;
  };

  test("an invoice page explains: wrong network, wrong token, wrong address, not a hash", async () => {
    const invoice = await createInvoice();
    expect(
      await atBothWidths(invoice.url, `0x${"ab".repeat(32)}`, "paidcheck-not-found"),
    ).toContain("Not found on Base (wrong network?)");

    const token = await deployOtherToken(chain);
    const fake = await sendTokenTransfer(chain, {
      from: devAccount(0),
      token,
      to: invoice.deposit_address,
      value: 150_125_000n,
    });
    expect(await atBothWidths(invoice.url, fake, "paidcheck-wrong-token")).toContain("Wrong token");

    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const elsewhere = await chain.payUsdc(devAccount(1), stranger, 150_125_000n);
    const text = await atBothWidths(
      invoice.url,
      elsewhere.transactionHash,
      "paidcheck-wrong-address",
    );
    expect(text).toContain("Sent to a different address");
    // It names the address to pay, which the page shows anyway.
    expect(text).toContain(invoice.deposit_address);

    // Without JavaScript, the same form works: it is a GET to the page itself.
    expect(await check(invoice.url, "0x1234", { js: false })).toContain(
      "That is not a transaction hash",
    );
  });

  test("a payment: waiting for confirmations (1 of 3), then counted; on a checkout page, another's payment", async () => {
    const invoice = await createInvoice();
    const paid = await chain.payUsdc(devAccount(2), invoice.deposit_address, 150_125_000n);
    expect(await atBothWidths(invoice.url, paid.transactionHash, "paidcheck-confirming")).toContain(
      "Waiting for confirmations: 1 of 3",
    );

    await chain.client.mine({ blocks: 2 });
    await expect
      .poll(async () => check(invoice.url, paid.transactionHash, { js: false }), {
        timeout: EVENT_MS,
        interval: 500,
      })
      .toContain("Counted");
    await atBothWidths(invoice.url, paid.transactionHash, "paidcheck-counted");

    const link = await post("/api/links", {
      merchant_email: "shop@example.com",
      merchant_name: "Corner Café",
      amount: "12.50",
      description: "Order #77",
      wallet_type: "managed",
    });
    const text = await atBothWidths(
      link.payment_link ?? "",
      paid.transactionHash,
      "paidcheck-checkout-other",
    );
    expect(text).toContain(`This transaction paid another invoice (${invoice.invoice_number})`);
    // Another merchant's invoice: its merchant's name is not on this page.
    expect(text).not.toContain("Acme");
  });
});
