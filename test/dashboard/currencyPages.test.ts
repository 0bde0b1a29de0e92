import { parse } from "csv-parse/sync";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { eurAt, eurStale } from "../currencies/eurInvoices.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { postSchedule } from "../schedules/fixtures.ts";
import { checkPage, PHONE_390, WIDTHS, waitForSignInLink } from "./dashboard.ts";

/**
 * Invoices priced in a currency in the dashboard (issue 45), in Chromium on the real stack: the
 * form's currency select, its preview in the chosen unit and the API's field messages; the
 * invoice's page in euros with the USDC received, the quote and each payment's amount in EUR
 * and rate (the API detail's figures), "Rate unavailable" while no fresh rate; a USDC invoice's
 * page as before. A new payment link's form: the same currency select, the amount's unit and
 * the API's field message, the link created in EUR. Pages at 390 (the link form: 420) and
 * 1280 px (test-artifacts/dashboard-eur-*).
 */
describe("invoices priced in a currency in the dashboard", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
    ]);
    merchant = await claimedMerchant(stack.db, { name: "Acme GmbH" });
    context = await browser.newContext({ viewport: PHONE_390.desktop });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
    await chain.revert();
  });
  afterEach(() => resetLocalFeeds(chain.url));

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);
  const text = async (selector: string) => ((await page.textContent(selector)) ?? "").trim();
  const line = (index: number, field: string) =>
    page.locator(`[name="line_items[${index}].${field}"]`);
  const detailOf = async (id: string) =>
    (await answer(await stack.request(`/api/invoices/${id}`, { headers: bearer(merchant.key) })))
      .body as unknown as Record<string, unknown> & { payments: Record<string, unknown>[] };

  /** Fills the form's customer, terms and merchant; the lines are each test's. */
  const fillParties = async () => {
    await page.getByLabel("Name", { exact: true }).fill("Globex SARL");
    await page.getByLabel("Email", { exact: true }).fill("ap@globex.example");
    await page.getByLabel("Due date").fill("2030-12-31");
    await page.getByLabel("Your name on the invoice").fill("Acme GmbH");
    await page.getByLabel("Your address").fill("Hauptstraße 1, 10115 Berlin");
  };
  const create = async () => {
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    await page.waitForURL(/\/dashboard\/invoices\/[0-9a-f-]{36}\?notice=created$/);
    return new URL(page.url()).pathname.split("/").at(-1) ?? "";
  };

  /** Submits the link form, waits for the link's page, and answers the API's detail of it. */
  const createLink = async () => {
    await page.getByRole("button", { name: "Create link" }).click();
    await page.waitForURL(/\/dashboard\/links\/[^/]+\?notice=created$/);
    const slug = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    return (
      await answer(await stack.request(`/api/links/${slug}`, { headers: bearer(merchant.key) }))
    ).body;
  };

  test("signs in", async () => {
    await go("/dashboard");
    await page.getByLabel("Your merchant account's email").fill(merchant.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.goto(await waitForSignInLink(stack, merchant.email));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard`);
  });

  test("the form prices in EUR and refuses what the API refuses; the page reads in euros beside the USDC asked and received", async () => {
    await go("/dashboard/invoices/new");
    expect(await page.getByLabel("Priced in").inputValue()).toBe("USDC");
    await line(0, "description").fill("Consulting");
    await line(0, "quantity").fill("1");
    await line(0, "unit_price").fill("99.995");
    await expect.poll(() => text("#invoice-total")).toBe("99.995 USDC");
    // In EUR a unit price has at most 2 decimals: no total, and the API's message at the field.
    await page.getByLabel("Priced in").selectOption("EUR");
    await expect.poll(() => text("#invoice-total")).toBe("—");
    expect(await text("table.lines thead [data-role=unit]")).toBe("EUR");
    await fillParties();
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    await expect
      .poll(() => text('[name="line_items[0].unit_price"] ~ .error'))
      .toBe("must have at most 2 decimals in EUR");
    expect(await page.getByLabel("Priced in").inputValue()).toBe("EUR");

    await line(0, "unit_price").fill("100");
    await expect.poll(() => text("#invoice-total")).toBe("100.00 EUR");
    await checkPage(page, "eur-new-invoice", PHONE_390);
    await eurAt(chain.url, "1.10");
    const id = await create();

    const detail = await detailOf(id);
    expect(detail).toMatchObject({ currency: "EUR", total_amount: "100.00", amount_due: "100.00" });
    expect(await text("#summary")).toContain("100.00 EUR from Globex SARL");
    expect(await text("[data-figure=total]")).toBe("100.00 EUR");
    expect(await text("[data-figure=due]")).toBe("100.00 EUR");
    expect(await text("[data-figure=received]")).toBe("0.00 EUR");
    expect(await text("[data-figure=received-usdc]")).toBe("0.00 USDC");
    // The quote the API's detail stands on: its USDC, rate and expiry.
    expect(detail.amount_due_usdc).toBe("110.00");
    expect(await text("[data-figure=ask]")).toMatch(
      /^110\.00 USDC for 100\.00 EUR at 1\.10000000 USDC per EUR, held until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect(await page.locator("[data-figure=net]").count()).toBe(0);

    // 44 USDC at its block's 1.10 is 40.00 EUR: the payment in both units, and the rest due.
    await chain.payUsdc(devAccount(6), detail.deposit_address as `0x${string}`, 44_000_000n);
    await expect
      .poll(async () => (await detailOf(id)).paid_amount, { timeout: EVENT_MS })
      .toBe("40.00");
    const paid = await detailOf(id);
    await go(`/dashboard/invoices/${id}`);
    expect(await text("[data-figure=received]")).toBe("40.00 EUR");
    expect(await text("[data-figure=due]")).toBe("60.00 EUR");
    expect(await text("[data-figure=received-usdc]")).toBe("44.00 USDC");
    const payment = page.locator("tr[data-payment]");
    expect(await payment.count()).toBe(1);
    expect(await payment.locator("td").allTextContents()).toEqual([
      expect.any(String),
      expect.any(String),
      "44.00 USDC",
      `${paid.payments[0]?.amount_in_currency} EUR`,
      `${paid.payments[0]?.rate} (its block)`,
    ]);
    expect(paid.payments[0]).toMatchObject({ amount_in_currency: "40.00", rate: "1.10000000" });
    expect(await text("[data-figure=ask]")).toMatch(
      new RegExp(`^${String(paid.amount_due_usdc).replace(".", "\\.")} USDC for 60\\.00 EUR`),
    );
    await checkPage(page, "eur-invoice", PHONE_390);

    // A refund pays back USDC; its confirmation says what that returns in euros (11 of the 44
    // USDC counted as 40.00 EUR), and requests nothing yet.
    await page.getByLabel("Amount in USDC").fill("11");
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await text("[data-figure=amount]")).toBe("11.00 USDC");
    expect(await text("[data-figure=in-currency]")).toMatch(/^10\.00 EUR of what the payments/);
    expect(await stack.db.selectFrom("app.refunds").select("id").execute()).toEqual([]);
    await checkPage(page, "eur-invoice-refund-confirm", PHONE_390);
  });

  test("while no fresh rate can be read, the page says so and asks for nothing", async () => {
    await eurStale(chain.url, chain.client);
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(merchant.key),
        json: invoiceRequest({
          merchant_email: merchant.email,
          currency: "EUR",
          line_items: [{ description: "Consulting", quantity: 1, unit_price: "100.00" }],
        }),
      }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as unknown as { invoice_id: string }).invoice_id;
    const detail = await detailOf(id);
    expect(detail).toMatchObject({ amount_due_usdc: null, rate_unavailable: expect.any(String) });
    await go(`/dashboard/invoices/${id}`);
    expect(await text("[data-figure=ask]")).toBe(
      `Rate unavailable: ${detail.rate_unavailable}. Nothing is asked until a fresh rate can be read.`,
    );
    expect(await text("[data-figure=due]")).toBe("100.00 EUR");
    expect(await text("[data-currency]")).toContain("No payment counted yet.");
    await checkPage(page, "eur-invoice-rate-unavailable", PHONE_390);
  });

  test("a USDC invoice's page is as before: amounts in USDC, net, no currency card", async () => {
    await go("/dashboard/invoices/new");
    await line(0, "description").fill("Design work");
    await line(0, "quantity").fill("2");
    await line(0, "unit_price").fill("75");
    await expect.poll(() => text("#invoice-total")).toBe("150.00 USDC");
    await fillParties();
    const id = await create();
    expect(await detailOf(id)).toMatchObject({ currency: "USDC", total_amount: "150.00" });
    expect(await text("[data-figure=total]")).toBe("150.00 USDC");
    expect(await text("[data-figure=net]")).toBe("0.00 USDC");
    expect(await text("[data-figure=due]")).toBe("150.00 USDC");
    expect(await page.locator("#paid-in-usdc").count()).toBe(0);
  });

  test("the new link form takes a currency: the amount's unit follows it, the API's message at the amount, the link in EUR", async () => {
    await go("/dashboard/links/new");
    expect(await page.getByLabel("Priced in").inputValue()).toBe("USDC");
    await page.getByLabel("What it is for").fill("Workshop ticket");
    await page.getByLabel("Amount (USDC)").fill("12.505");
    await page.getByLabel("Priced in").selectOption("EUR");
    // The label names the chosen unit (the dashboard's script), as the server renders it.
    await expect.poll(() => text("label[for=amount]")).toBe("Amount (EUR)");
    await page.getByRole("button", { name: "Create link" }).click();
    await expect.poll(() => text("#amount-error")).toBe("must have at most 2 decimals in EUR");
    expect(await page.getByLabel("Priced in").inputValue()).toBe("EUR");
    expect(await text("label[for=amount]")).toBe("Amount (EUR)");
    expect(await page.getByLabel("Amount (EUR)").inputValue()).toBe("12.505");
    const before = await answer(
      await stack.request("/api/links", { headers: bearer(merchant.key) }),
    );
    expect((before.body as unknown as { data: unknown[] }).data).toEqual([]);

    await page.getByLabel("Amount (EUR)").fill("12.50");
    await checkPage(page, "eur-new-link", WIDTHS);
    const link = await createLink();
    expect(link).toMatchObject({ currency: "EUR", amount: "12.50" });
    expect(await text("main h2")).toContain("12.50 EUR");
    expect(await text("[data-figure=received]")).toBe("0.00 EUR");
    expect(await text("[data-figure=received-usdc]")).toBe("0.00 USDC");
    await checkPage(page, "eur-link", WIDTHS);

    // 11 USDC at its block's 1.10 is 10.00 EUR: the list gives it in euros, the USDC beside.
    await eurAt(chain.url, "1.10");
    await chain.payUsdc(devAccount(7), link.deposit_address as `0x${string}`, 11_000_000n);
    const linkDetail = async () =>
      (
        await answer(
          await stack.request(`/api/links/${link.slug}`, { headers: bearer(merchant.key) }),
        )
      ).body;
    await expect
      .poll(async () => (await linkDetail()).amount_received, { timeout: EVENT_MS })
      .toBe("10.00");
    await go("/dashboard/links");
    const row = page.locator("tr", { hasText: "Workshop ticket" });
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(-3)).toEqual(["12.50 EUR", "10.00 EUR (11.00 USDC)", "0.00 USDC"]);
    await checkPage(page, "eur-links", WIDTHS);
    // The payments export, a link's payment as an invoice's: USDC moved, what it counted for.
    const exported = await stack.request("/api/exports/payments.csv?bom=false", {
      headers: bearer(merchant.key),
    });
    const rows = parse(await exported.text(), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.link_slug === link.slug)).toMatchObject({
      entry: "payment",
      amount: "11.00",
      currency: "USDC",
      kind: "link",
      priced_in: "EUR",
      amount_in_currency: "10.00",
      rate: "1.10000000",
    });
  });

  test("a new link left in USDC is created in USDC, as before", async () => {
    await go("/dashboard/links/new");
    await page.getByLabel("What it is for").fill("Sticker pack");
    await page.getByLabel("Amount (USDC)").fill("3.333");
    expect(await createLink()).toMatchObject({ currency: "USDC", amount: "3.333" });
    expect(await text("[data-figure=net]")).toBe("0.00 USDC");
  });

  test("a schedule priced in EUR: its page says so, its form keeps EUR through a change", async () => {
    const created = await postSchedule(
      stack,
      merchant,
      {},
      {
        currency: "EUR",
        line_items: [{ description: "Retainer", quantity: 1, unit_price: "1500.00" }],
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { schedule_id: string }).schedule_id;
    await go(`/dashboard/schedules/${id}`);
    expect(await text("[data-figure=currency]")).toBe("EUR");
    await go(`/dashboard/schedules/${id}/edit`);
    expect(await page.getByLabel("Priced in").inputValue()).toBe("EUR");
    expect(await text("table.lines thead [data-role=unit]")).toBe("EUR");
    await line(0, "quantity").fill("3");
    await expect.poll(() => text("#invoice-total")).not.toBe("—");
    await checkPage(page, "eur-schedule-form", WIDTHS);
    await page.getByRole("button", { name: "Save changes" }).last().click();
    await page.waitForURL(/notice=saved/);
    const schedule = await answer(
      await stack.request(`/api/invoice-schedules/${id}`, { headers: bearer(merchant.key) }),
    );
    expect(schedule.body).toMatchObject({
      currency: "EUR",
      invoice: { currency: "EUR", line_items: [expect.objectContaining({ quantity: 3 })] },
    });
  });
});
