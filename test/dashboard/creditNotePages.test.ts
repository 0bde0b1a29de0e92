import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { checkPage, PHONE_390, waitForSignInLink } from "./dashboard.ts";

/**
 * Credit notes and e-invoices on the invoice's dashboard page (issue 44), in Chromium on the
 * real stack: a partial credit note issued from the page through its confirmation, the page's
 * figures = the API's after it, the credit note's PDF link = the stored bytes, its e-invoice and
 * the invoice's (XML), the form's field messages, no form on a draft, and an invoice without tax
 * naming the fields its e-invoices lack instead of links. Screens at 390 and 1280 px.
 */
describe("credit notes and e-invoices in the dashboard", () => {
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
    page.locator(`#credit-note-form [name="line_items[${index}].${field}"]`);
  const api = async (path: string, init: { method?: string; json?: unknown } = {}) =>
    answer(await stack.request(path, { ...init, headers: bearer(merchant.key) }));
  const createInvoice = async (overrides: Record<string, unknown>) => {
    const created = await api("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: merchant.email, ...overrides }),
    });
    expect(created.status).toBe(201);
    return created.body.invoice_id as string;
  };
  /** A link of the page, fetched with the session (as the browser would download it). */
  const download = async (selector: string) => {
    const href = await page.locator(selector).first().getAttribute("href");
    expect(href, selector).toBeTruthy();
    return page.request.get(new URL(href ?? "", page.url()).toString());
  };

  test("signs in", async () => {
    await go("/dashboard");
    await page.getByLabel("Your merchant account's email").fill(merchant.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.goto(await waitForSignInLink(stack, merchant.email));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard`);
  });

  test("a partial credit note from the page: confirmed, the API's amounts, its PDF and e-invoices", async () => {
    const id = await createInvoice({
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
        { description: "Hosting", quantity: 1, unit_price: "20.00", tax_rate: "19" },
      ],
      merchant_tax_id: "DE123456789",
      merchant_country: "DE",
      vendor_tax_id: "FR12345678901",
      vendor_country: "FR",
    });
    await go(`/dashboard/invoices/${id}`);
    // 170.00 + 19 % = 202.30; nothing credited yet.
    expect(await text("[data-figure=asks-for]")).toBe("202.30 USDC");
    expect(await text("[data-figure=credited]")).toBe("0.00 USDC");

    // The invoice's e-invoices: a link per format, the UBL an Invoice.
    expect(await page.locator("main a[data-einvoice]").count()).toBe(3);
    const ubl = await download("a[data-einvoice=ubl]");
    expect(ubl.status()).toBe(200);
    expect(ubl.headers()["content-type"]).toContain("application/xml");
    expect(await ubl.text()).toMatch(/^<\?xml[\s\S]*<Invoice [\s\S]*202\.30/);
    const facturx = await download("a[data-einvoice=facturx]");
    expect(facturx.headers()["content-type"]).toBe("application/pdf");
    expect((await facturx.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // Field messages: no reason; then more than the invoice asks for.
    await page.getByLabel("These lines").check();
    await line(0, "description").fill("Design work");
    await line(0, "quantity").fill("1");
    await line(0, "unit_price").fill("1000");
    await line(0, "tax_rate").fill("19");
    await page.getByRole("button", { name: "Issue credit note…" }).last().click();
    await expect.poll(() => text("#reason-error")).toBe("is required");
    expect(await line(0, "unit_price").inputValue()).toBe("1000");
    await page.getByLabel("Reason").fill("One day billed twice");
    await page.getByRole("button", { name: "Issue credit note…" }).last().click();
    await expect
      .poll(() => text("#credit-note-form .error"))
      .toContain("is more than the invoice still asks for (202.30 USDC)");
    expect((await api(`/api/invoices/${id}`)).body.credit_notes ?? []).toEqual([]);

    // The credit asked for, priced live as the server prices it, then confirmed.
    await line(0, "unit_price").fill("75");
    await expect.poll(() => text("#invoice-total")).toBe("89.25 USDC");
    await checkPage(page, "credit-note-form", PHONE_390);
    await page.getByRole("button", { name: "Issue credit note…" }).last().click();
    await expect.poll(() => text("[data-figure=credit-total]")).toBe("89.25 USDC");
    expect(await text("[data-figure=asks-for-after]")).toBe("113.05 USDC");
    expect(await text("[data-figure=reason]")).toBe("One day billed twice");
    await checkPage(page, "credit-note-confirm", PHONE_390);
    await page.getByRole("button", { name: "Issue credit note of 89.25 USDC" }).click();
    await page.waitForURL(/\?notice=credited$/);

    // The page's figures are the API's.
    const detail = (await api(`/api/invoices/${id}`)).body;
    expect(detail).toMatchObject({ credited_amount: "89.25", amount_due: "113.05" });
    const notes = (await api(`/api/credit-notes?invoice_id=${id}`)).body.credit_notes as {
      credit_note_id: string;
      credit_note_number: string;
      total_amount: string;
      issue_date: string;
      pdf_sha256: string;
    }[];
    expect(notes).toHaveLength(1);
    const [note] = notes;
    expect(note?.total_amount).toBe("89.25");
    expect(await text("[data-figure=credited]")).toBe("89.25 USDC");
    expect(await text("[data-figure=asks-for]")).toBe("113.05 USDC");
    expect(await text("[data-figure=due]")).toBe("113.05 USDC");
    const row = await page
      .locator(`tr[data-credit-note="${note?.credit_note_number}"] td`)
      .allTextContents();
    expect(row.slice(0, 4).map((cell) => cell.trim())).toEqual([
      "CN-0001",
      note?.issue_date,
      "One day billed twice",
      "89.25 USDC",
    ]);
    // The form stays for what remains.
    expect(await page.locator("#credit-note-form").count()).toBe(1);
    await checkPage(page, "credit-note-invoice", PHONE_390);

    // Its PDF: the bytes stored at issue (the API's hash, the API's bytes).
    const pdf = await download("a[data-document=pdf]");
    expect(pdf.status()).toBe(200);
    const bytes = await pdf.body();
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(note?.pdf_sha256);
    const stored = await stack.request(`/api/credit-notes/${note?.credit_note_id}/pdf`, {
      headers: bearer(merchant.key),
    });
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
    // Its e-invoice: a UBL CreditNote naming the invoice it corrects.
    const credit = await download("tr[data-credit-note] a[data-einvoice=ubl]");
    expect(credit.status()).toBe(200);
    expect(await credit.text()).toMatch(/<CreditNote [\s\S]*89\.25/);
    const cii = await download("tr[data-credit-note] a[data-einvoice=cii]");
    expect(await cii.text()).toContain("<rsm:CrossIndustryInvoice");
  });

  test("an invoice without tax names the fields its e-invoices lack; a draft has no credit form", async () => {
    const id = await createInvoice({});
    await go(`/dashboard/invoices/${id}`);
    expect(await page.locator("main a[data-einvoice]").count()).toBe(0);
    const missing = page.locator("[data-einvoice-missing]");
    expect(await missing.getAttribute("data-einvoice-missing")).toBe("ubl cii facturx");
    const fields = await missing
      .locator("[data-missing-field]")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-missing-field")));
    // The API's 409 names the same fields.
    const refused = await api(`/api/invoices/${id}/einvoice?format=cii`);
    expect(refused.status).toBe(409);
    expect(fields).toEqual(
      (refused.body.error as { fields: { path: string }[] }).fields.map((detail) => detail.path),
    );
    expect(fields).toContain("vendor_country");
    // Without tax, the credit form has no tax columns or rows.
    expect(await page.locator("#credit-note-form").count()).toBe(1);
    expect(await line(0, "tax_rate").count()).toBe(0);
    // The lines show once "These lines" is chosen.
    expect(await line(0, "description").isVisible()).toBe(false);
    await page.getByLabel("These lines").check();
    expect(await line(0, "description").isVisible()).toBe(true);
    expect(await page.textContent("main")).not.toContain("Subtotal");
    await checkPage(page, "credit-note-untaxed", PHONE_390);
    // A download typed by hand: the same fields, on a 409 page.
    const typed = await page.request.get(
      `${stack.api.url}/dashboard/invoices/${id}/einvoice?format=ubl`,
    );
    expect(typed.status()).toBe(409);
    expect(await typed.text()).toContain('data-missing-field="vendor_country"');

    const draft = await createInvoice({ send_now: false });
    await go(`/dashboard/invoices/${draft}`);
    expect(await page.locator("#credit-note-form").count()).toBe(0);
    expect(await page.locator("#credit-notes").count()).toBe(0);
  });
});
