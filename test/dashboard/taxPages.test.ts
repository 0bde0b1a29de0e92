import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { checkPage, PHONE_390, waitForSignInLink } from "./dashboard.ts";

const EXEMPTION = "Exempt under Article 132(1)(i) of Directive 2006/112/EC";

/**
 * Tax in the dashboard (issue 44), in Chromium on the real stack: the invoice form's tax fields
 * with the live subtotal, tax and total (the script's, and without it the server's
 * priceInvoice), the API's field messages at the tax fields, and the invoice page's tax (each
 * line's rate, subtotal, tax, the breakdown, both tax IDs, the exemption wording), which an
 * invoice without tax does not have. Both pages at 390 and 1280 px (test-artifacts/).
 */
describe("tax in the dashboard", () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack({ worker: true }), launchBrowser()]);
    merchant = await claimedMerchant(stack.db, { name: "Acme GmbH" });
    context = await browser.newContext({ viewport: PHONE_390.desktop });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);
  const text = async (selector: string) => ((await page.textContent(selector)) ?? "").trim();
  const line = (index: number, field: string) =>
    page.locator(`[name="line_items[${index}].${field}"]`);

  test("signs in", async () => {
    await go("/dashboard");
    await page.getByLabel("Your merchant account's email").fill(merchant.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.goto(await waitForSignInLink(stack, merchant.email));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard`);
  });

  test("the form: live subtotal, tax and total; the API's messages at the tax fields; the page's tax", async () => {
    await go("/dashboard/invoices/new");
    // Without tax, the form totals as before: no subtotal or tax shown.
    await line(0, "description").fill("Design work");
    await line(0, "quantity").fill("2");
    await line(0, "unit_price").fill("75");
    await expect.poll(() => text("#invoice-total")).toBe("150.00 USDC");
    expect(await page.locator("#invoice-tax").isVisible()).toBe(false);

    await line(0, "tax_rate").fill("19");
    await expect.poll(() => text("#invoice-tax")).toBe("28.50 USDC");
    expect(await text("#invoice-subtotal")).toBe("150.00 USDC");
    expect(await text("#invoice-total")).toBe("178.50 USDC");
    const rows: [string, string, string, string, string][] = [
      ["Hosting", "1", "19.99", "7", ""],
      ["Training", "1", "40", "", "E"],
      ["Licence", "1", "100", "", "AE"],
    ];
    for (const [i, [description, quantity, price, rate, category]] of rows.entries()) {
      await page.getByRole("button", { name: "Add a line" }).click();
      await line(i + 1, "description").fill(description);
      await line(i + 1, "quantity").fill(quantity);
      await line(i + 1, "unit_price").fill(price);
      if (rate) await line(i + 1, "tax_rate").fill(rate);
      if (category) await line(i + 1, "tax_category").selectOption(category);
    }
    // 150.00 × 19 % = 28.50 and 19.99 × 7 % = 1.40; exempt and reverse-charge lines add none.
    await expect.poll(() => text("#invoice-total")).toBe("339.89 USDC");
    expect(await text("#invoice-subtotal")).toBe("309.99 USDC");
    expect(await text("#invoice-tax")).toBe("29.90 USDC");

    await page.getByLabel("Name", { exact: true }).fill("Globex SARL");
    await page.getByLabel("Email", { exact: true }).fill("ap@globex.example");
    await page.getByLabel("Due date").fill("2030-12-31");
    await page.getByLabel("Your name on the invoice").fill("Acme GmbH");
    await page.getByLabel("Your address").fill("Hauptstraße 1, 10115 Berlin");
    await page.getByLabel("Your tax ID").fill("DE 123 456 789");
    await page.getByLabel("Your country").fill("de");
    // No customer's tax ID (reverse charge needs it) and no exemption reason: the API's
    // messages at those fields, nothing created, every line as typed.
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    // The API's own messages (the field's hint says when it is required).
    await expect.poll(() => text("#vendor_tax_id-error")).toBe("is required");
    expect(await text("#tax_exemption_reason-error")).toBe("is required");
    expect(await line(3, "tax_category").inputValue()).toBe("AE");
    expect(await line(1, "tax_rate").inputValue()).toBe("7");
    expect(await text("#invoice-total")).toBe("339.89 USDC");
    await checkPage(page, "tax-new-invoice-errors", PHONE_390);

    await page.getByLabel("Customer's tax ID").fill("FR12345678901");
    await page.getByLabel("Customer's country").fill("FR");
    await page.getByLabel("Why no tax is charged").fill(EXEMPTION);
    await checkPage(page, "tax-new-invoice", PHONE_390);
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    await page.waitForURL(/\/dashboard\/invoices\/[0-9a-f-]{36}\?notice=created$/);
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";

    // The page's figures are the API's detail's, which the live preview promised.
    const detail = (
      await answer(await stack.request(`/api/invoices/${id}`, { headers: bearer(merchant.key) }))
    ).body;
    expect(detail).toMatchObject({
      subtotal_amount: "309.99",
      tax_amount: "29.90",
      total_amount: "339.89",
      merchant_tax_id: "DE123456789",
      merchant_country: "DE",
    });
    expect(await text("[data-figure=subtotal]")).toBe("309.99 USDC");
    expect(await text("[data-figure=tax]")).toBe("29.90 USDC");
    expect(await text("[data-figure=total]")).toBe("339.89 USDC");
    expect(
      await page
        .locator("table.responsive")
        .first()
        .locator("tbody td[data-label=Tax]")
        .allTextContents(),
    ).toEqual(["19 % · S", "7 % · S", "0 % · E", "0 % · AE"]);
    expect(await text("[data-figure=merchant-tax-id]")).toBe("DE123456789 (DE)");
    expect(await text("[data-figure=vendor-tax-id]")).toBe("FR12345678901 (FR)");
    const breakdown = await page
      .locator("tr[data-tax-row]")
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent?.trim())),
      );
    expect(breakdown).toEqual([
      ["S · Standard rate", "19 %", "150.00 USDC", "28.50 USDC"],
      ["S · Standard rate", "7 %", "19.99 USDC", "1.40 USDC"],
      ["E · Exempt", "0 %", "40.00 USDC", "0.00 USDC"],
      ["AE · Reverse charge", "0 %", "100.00 USDC", "0.00 USDC"],
    ]);
    // The one reason given applies to each category without tax: said once, naming both.
    expect(await page.locator("[data-exemption]").allTextContents()).toEqual([
      `Exempt, Reverse charge: ${EXEMPTION}`,
    ]);
    await checkPage(page, "tax-invoice", PHONE_390);
  });

  test("without the script, Update total prices the taxed lines on the server", async () => {
    const noScript = await browser.newContext({
      viewport: PHONE_390.desktop,
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    try {
      const plain = await noScript.newPage();
      await plain.goto(`${stack.api.url}/dashboard/invoices/new`);
      await plain.locator('[name="line_items[0].description"]').fill("Design work");
      await plain.locator('[name="line_items[0].quantity"]').fill("3");
      await plain.locator('[name="line_items[0].unit_price"]').fill("33.333333");
      await plain.locator('[name="line_items[0].tax_rate"]').fill("19");
      await plain.getByRole("button", { name: "Update total" }).click();
      // 99.999999 to the cent is 100.00; 19 % of it 19.00.
      await expect.poll(() => plain.textContent("#invoice-total")).toBe("119.00 USDC");
      expect(await plain.textContent("#invoice-subtotal")).toBe("100.00 USDC");
      expect(await plain.textContent("#invoice-tax")).toBe("19.00 USDC");
      expect(await plain.locator("#invoice-tax").isVisible()).toBe(true);
    } finally {
      await noScript.close();
    }
  });

  test("an invoice without tax: its page has no tax column, subtotal or tax card", async () => {
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(merchant.key),
        json: invoiceRequest({ merchant_email: merchant.email }),
      }),
    );
    expect(created.status).toBe(201);
    await go(`/dashboard/invoices/${created.body.invoice_id}`);
    const headers = await page
      .locator("table.responsive")
      .first()
      .locator("thead th")
      .allTextContents();
    expect(headers).toEqual(["Description", "Quantity", "Unit price", "Total"]);
    expect(await page.locator("tfoot tr").count()).toBe(1);
    expect(await text("[data-figure=total]")).toBe("150.125 USDC");
    expect(await page.locator("#tax").count()).toBe(0);
    expect(await page.textContent("main")).not.toContain("Subtotal");
  });
});
