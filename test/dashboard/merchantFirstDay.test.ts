import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type Address, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { utcToday } from "../../domain/invoiceStatus.ts";
import { waitFor } from "../../internal/process.ts";
import { bearer } from "../accounts/accounts.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceApi } from "../refunds/helpers.ts";
import { checkPage, PHONE_390 } from "./dashboard.ts";

const CLAIM_LINK = /https?:\/\/[^\s"<]+\/claim\/[1-9A-HJ-NP-Za-km-z]{43}/;

/**
 * A merchant's first day in the dashboard, in Chromium on the real stack: claiming the email
 * from the sign-in page, typing amounts as people do ("100", "40", "25", "19.5"), a second
 * screen before a void or a refund (the refund's default the API's own plan), exports a
 * spreadsheet opens right, and a timeline in words.
 */
describe("a merchant's first day in the dashboard", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const email = `first-day-${randomUUID().slice(0, 8)}@acme-ltd.example`;
  let key = "";
  let invoicePath = "";

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser, receiver] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
      startWebhookReceiver(),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.stop();
    await stack?.stop();
    await chain.revert();
  });

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);

  test("claims the email from the sign-in page: the claim link signs in, no second email", async () => {
    await go("/dashboard/sign-in");
    await checkPage(page, "first-day-sign-in");
    // The same answer for an unknown address and the claimed one (nothing is revealed).
    await page.getByLabel("Merchant email to claim").fill(email);
    await page.getByRole("button", { name: "Email me a claim link" }).click();
    const answer = await page.textContent("main");
    expect(answer).toContain("If this email may claim a Remit merchant account");
    await checkPage(page, "first-day-claim-sent");
    const texts = await waitFor(
      "the claim email",
      async () => {
        const found = (await stack.outbox()).filter(
          (e) => e.to.includes(email) && CLAIM_LINK.test(e.text ?? ""),
        );
        return found.length > 0 && found;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    await page.goto(CLAIM_LINK.exec(texts[0]?.text ?? "")?.[0] ?? "");
    await page.getByRole("button").first().click();
    key = ((await page.textContent("#api-key")) ?? "").trim();
    expect(key).toMatch(/^remit_/);
    expect(await page.textContent("main")).toContain("You are signed in to your dashboard");
    await checkPage(page, "first-day-claimed", PHONE_390);
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    // Signed in by the claim link itself: the dashboard, not the sign-in form.
    await page.waitForURL(`${stack.api.url}/dashboard`);
    expect(await page.textContent(".who")).toContain(email);
    await checkPage(page, "first-day-dashboard", PHONE_390);
    // One email in all: the claim link (no sign-in link was asked for or sent).
    expect((await stack.outbox()).filter((e) => e.to.includes(email))).toHaveLength(1);
    // The layout: a favicon, and the sign-out button on the navigation's line.
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
    const middle = async (selector: string) => {
      const box = await page.locator(selector).first().boundingBox();
      return box ? box.y + box.height / 2 : Number.NaN;
    };
    expect(
      Math.abs((await middle(".who button")) - (await middle("nav.main a"))),
    ).toBeLessThanOrEqual(2);
  });

  test("types 25 and 5 as the tolerance, 40 as a link's amount", async () => {
    await go("/dashboard/settings");
    await page.getByLabel("Your name on new invoices").fill("Acme Ltd");
    await page.getByLabel("Underpayment tolerance (USDC)").fill("25");
    await page.getByRole("button", { name: "Save" }).click();
    // Read as 25.00 and judged by the API's cap, not refused as "unquoted".
    const refused = (await page.textContent("#underpayment_tolerance-error")) ?? "";
    expect(refused).toContain("at most 10.00");
    expect(refused).not.toContain("quoted");
    await page.getByLabel("Underpayment tolerance (USDC)").fill("5");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/notice=saved/);
    expect(await page.getByLabel("Underpayment tolerance (USDC)").inputValue()).toBe("5.00");

    await go("/dashboard/links/new");
    await page.getByLabel("What it is for").fill("Workshop ticket");
    await page.getByLabel("Amount (USDC)").fill("1,000");
    await page.getByRole("button", { name: "Create link" }).click();
    expect(await page.textContent("#amount-error")).toContain("without separators");
    await page.getByLabel("Amount (USDC)").fill("40");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.waitForURL(/\/dashboard\/links\/[^/]+\?notice=created$/);
    const slug = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const link = await stack.request(`/api/links/${slug}`, { headers: bearer(key) });
    expect(((await link.json()) as { amount: string }).amount).toBe("40.00");
  });

  test("types 100 and 19.5 as prices: the live total and the invoice agree", async () => {
    await go("/dashboard/invoices/new");
    await page.getByLabel("Name", { exact: true }).fill("Ünïcödé — 日本語 GmbH");
    await page.getByLabel("Email", { exact: true }).fill("ap@globex.example");
    await page.getByLabel("Due date").fill("2099-12-31");
    await page.getByLabel("Your address").fill("1 Market St, San Francisco");
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.locator('[name="line_items[0].description"]').fill("Design work");
    await page.locator('[name="line_items[0].quantity"]').fill("1");
    await page.locator('[name="line_items[0].unit_price"]').fill("100");
    await page.getByRole("button", { name: "Add a line" }).click();
    await page.locator('[name="line_items[1].description"]').fill("Hosting");
    await page.locator('[name="line_items[1].quantity"]').fill("2");
    await page.locator('[name="line_items[1].unit_price"]').fill("19,5");
    await expect.poll(() => page.textContent("#invoice-total")).toBe("—");
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    expect(await page.locator('[name="line_items[1].unit_price"]').inputValue()).toBe("19,5");
    const message = await page.locator("td.price .error").textContent();
    expect(message).toContain("without separators");
    expect(message).not.toContain("quoted");
    await checkPage(page, "first-day-new-invoice-errors");
    await page.locator('[name="line_items[1].unit_price"]').fill("19.5");
    await expect.poll(() => page.textContent("#invoice-total")).toBe("139.00 USDC");
    await checkPage(page, "first-day-new-invoice");
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    await page.waitForURL(/\/dashboard\/invoices\/[0-9a-f-]{36}\?notice=created$/);
    invoicePath = new URL(page.url()).pathname;
    expect(await page.textContent("main h2")).toContain("139.00 USDC");
    const prices = await stack.db
      .selectFrom("app.invoice_line_items")
      .select(["unit_price", "line_total"])
      .where("invoice_id", "=", invoicePath.split("/").at(-1) ?? "")
      .orderBy("position")
      .execute();
    expect(prices).toEqual([
      { unit_price: 100_000_000n, line_total: 100_000_000n },
      { unit_price: 19_500_000n, line_total: 39_000_000n },
    ]);
    // One "Total" at phone width: the footer's cell has no second label.
    expect(await page.locator("tfoot td[data-label]").count()).toBe(0);
  });

  test("void: a second screen names the invoice and its amount; Cancel changes nothing", async () => {
    const created = await invoiceApi(stack, bearer(key)).create({ merchant_email: email });
    await go(`/dashboard/invoices/${created.invoice_id}`);
    await page.getByRole("button", { name: "Void invoice" }).click();
    expect(await page.textContent("h1")).toBe(`Void invoice ${created.invoice_number}?`);
    expect(await page.textContent("[data-figure=amount]")).toBe("150.125 USDC");
    expect(await page.textContent("main")).toContain(getAddress(created.deposit_address));
    await checkPage(page, "first-day-void-confirm");
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard/invoices/${created.invoice_id}`);
    const status = async () =>
      (
        (await (await stack.request(`/api/invoices/${created.invoice_id}/status`)).json()) as {
          status: string;
        }
      ).status;
    expect(await status()).not.toBe("void");
    await page.getByRole("button", { name: "Void invoice" }).click();
    await page.getByRole("button", { name: `Void invoice ${created.invoice_number}` }).click();
    await page.waitForURL(/notice=voided/);
    expect(await status()).toBe("void");
    // The timeline in words: once "Voided", with who did it.
    const timeline = (await page.textContent(".timeline")) ?? "";
    expect(timeline).toContain("Voided in the dashboard");
    expect(timeline).not.toContain("invoice.voided");
    expect(timeline).not.toMatch(/Email \(/);
  });

  test("refund: the form's default is the API's plan (the excess), confirmed on a second screen", async () => {
    const id = invoicePath.split("/").at(-1) ?? "";
    const api = invoiceApi(stack, bearer(key));
    const invoice = await api.get(id);
    const receipt = await chain.payUsdc(
      devAccount(4),
      invoice.deposit_address as Address,
      169_000_000n,
    );
    await api.swept(id);
    await go(invoicePath);
    // Nothing is asked of the API's default but what the form says it is.
    expect(await page.textContent("#amount-hint")).toContain("Empty: 30.00 USDC");
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await page.textContent("h1")).toBe("Refund 30.00 USDC?");
    expect(await page.textContent("[data-figure=from]")).toContain(
      getAddress(invoice.deposit_address as string),
    );
    expect(await page.textContent("[data-figure=to]")).toContain(
      "a one-time claim link emailed to ap@globex.example",
    );
    await checkPage(page, "first-day-refund-confirm");
    expect(await stack.db.selectFrom("app.refunds").select("id").execute()).toEqual([]);

    // A typed amount and an address: "19.5" is 19.50; nothing moves before the second button.
    await go(invoicePath);
    await page.getByLabel("Amount in USDC").fill("19.5");
    const to = getAddress(`0x${"ab".repeat(20)}`);
    await page.getByLabel("Send to address").fill(to);
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await page.textContent("h1")).toBe("Refund 19.50 USDC?");
    expect(await page.textContent("[data-figure=to]")).toContain(to);
    await page.getByRole("button", { name: "Refund 19.50 USDC" }).click();
    await expect.poll(() => page.textContent("main .alert")).toContain("19.50 USDC is requested");
    const refunds = await stack.db
      .selectFrom("app.refunds")
      .select(["amount", "to_address", "source"])
      .execute();
    expect(refunds.map((r) => [r.amount, r.to_address?.toLowerCase(), r.source])).toEqual([
      [19_500_000n, to.toLowerCase(), "deposit"],
    ]);

    // The timeline: the payment's hash shortened (the whole in its title), checksummed
    // addresses, webhook attempts one per line.
    await go(invoicePath);
    const shown = page
      .locator(`.timeline [title="${receipt.transactionHash}"] [aria-hidden="true"]`)
      .first();
    expect(((await shown.textContent()) ?? "").length).toBeLessThan(30);
    await page.locator(`.timeline button[data-copy="${receipt.transactionHash}"]`).first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(receipt.transactionHash);
    const payer = devAccount(4).address;
    expect(await page.textContent(".timeline")).toContain(getAddress(payer));
    await expect
      .poll(
        async () => {
          await go(invoicePath);
          return page.locator(".timeline ul.attempts li").count();
        },
        { timeout: EVENT_MS, interval: 500 },
      )
      .toBeGreaterThan(0);
    const timeline = (await page.textContent(".timeline")) ?? "";
    expect(timeline).toContain("Paid more than due");
    expect(timeline).toContain("Refund of 19.50 USDC to");
    await checkPage(page, "first-day-invoice");
  });

  test("exports: a byte order mark, spreadsheet times, a file named after the merchant and dates", async () => {
    const response = await context.request.get(`${stack.api.url}/dashboard/exports/invoices.csv`);
    expect(response.status()).toBe(200);
    const bytes = await response.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.headers()["content-disposition"]).toBe(
      `attachment; filename="acme-ltd_invoices_all_${utcToday()}.csv"`,
    );
    const rows = parse(bytes, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.some((r) => r.vendor_name === "Ünïcödé — 日本語 GmbH")).toBe(true);
    expect(rows.every((r) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(r.created_at_utc ?? ""))).toBe(
      true,
    );

    const month = await stack.request(
      "/api/exports/payments.csv?from=2026-11-01&to=2026-11-30&bom=false",
      { headers: bearer(key) },
    );
    expect(month.headers.get("content-disposition")).toBe(
      'attachment; filename="acme-ltd_payments_2026-11-01_2026-11-30.csv"',
    );
    expect(new Uint8Array(await month.arrayBuffer())[0]).toBe("p".charCodeAt(0));
  });
});
