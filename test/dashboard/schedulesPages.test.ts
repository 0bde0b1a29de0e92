import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { setClock } from "../schedules/testClock.ts";
import { checkPage, waitForSignInLink } from "./dashboard.ts";

type Json = Record<string, unknown>;

/** The widths the new pages are screenshotted at: a small phone and a desktop. */
const SHOTS = { phone: { width: 390, height: 900 }, desktop: { width: 1280, height: 900 } };

/**
 * The Schedules and Receivables pages in Chromium on the real stack (the API and the worker,
 * TEST_CLOCK=on): a schedule created with the API shows on the dashboard, its run-now button
 * issues an invoice listed on its page, pause works; the receivables page shows the API
 * report's figures. One merchant's session runs through the tests in order.
 */
describe("the dashboard's schedules and receivables in a browser", () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;
  let scheduleId = "";

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startStack({ worker: true, env: { TEST_CLOCK: "on" } }),
      launchBrowser(),
    ]);
    merchant = await claimedMerchant(stack.db, { name: "Acme Design Studio" });
    await setClock(stack.db, "2031-05-12");
    context = await browser.newContext({ viewport: SHOTS.desktop });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);
  const call = async (method: string, path: string, json?: unknown) =>
    answer(
      await stack.request(path, {
        method,
        headers: bearer(merchant.key),
        ...(json === undefined ? {} : { json }),
      }),
    );
  const shoot = async (name: string) => {
    for (const [size, viewport] of Object.entries(SHOTS)) {
      await page.setViewportSize(viewport);
      await screenshot(page, `dashboard-${name}-${size}-${viewport.width}`);
    }
    await page.setViewportSize(SHOTS.desktop);
  };

  test("signs in", async () => {
    await go("/dashboard");
    await page.getByLabel("Your merchant account's email").fill(merchant.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.goto(await waitForSignInLink(stack, merchant.email));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard`);
  });

  test("a schedule created with the API: listed, run now from its page, paused", async () => {
    const {
      issue_date: _i,
      due_date: _d,
      ...template
    } = invoiceRequest({ merchant_email: merchant.email, vendor_name: "Initech" });
    const created = await call("POST", "/api/invoice-schedules", {
      invoice: template,
      interval: "monthly",
      start_date: "2031-06-10",
      days_until_due: 14,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    scheduleId = (created.body as Json).schedule_id as string;

    await go("/dashboard/schedules");
    const row = page.locator(`tr[data-schedule="${scheduleId}"]`);
    await expect.poll(() => row.textContent()).toContain("Initech");
    expect(await row.textContent()).toContain("2031-06-10");
    await checkPage(page, "schedules");

    await row.getByRole("link", { name: "Initech" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard/schedules/${scheduleId}`);
    expect(await page.textContent('[data-figure="next-issue-date"]')).toBe("2031-06-10");
    expect(await page.textContent("main")).toContain("None yet.");

    await page.getByRole("button", { name: "Issue the next invoice now" }).click();
    await page.waitForURL(/notice=run/);
    const [issued] = (await call("GET", "/api/invoices")).body.data as Json[];
    expect(issued).toBeDefined();
    const listed = page.locator('[data-list="schedule-invoices"] a');
    expect(await listed.allTextContents()).toEqual([issued?.invoice_number]);
    expect(await page.textContent('[data-figure="issued-count"]')).toBe("1");
    // The next period is the one after the period issued today.
    expect(await page.textContent('[data-figure="next-issue-date"]')).toBe("2031-07-10");

    await page.getByRole("button", { name: "Pause" }).click();
    await page.waitForURL(/notice=paused/);
    expect(await page.textContent("main")).toContain("The schedule is paused");
    const after = await call("GET", `/api/invoice-schedules/${scheduleId}`);
    expect(after.body).toMatchObject({ status: "paused", issued_count: 1 });
    expect(await page.getByRole("button", { name: "Resume" }).count()).toBe(1);
    await checkPage(page, "schedule");
    await shoot("schedule");
  });

  test("the receivables page shows the API report's figures", async () => {
    // Open invoices of two customers, aged differently on the clock's day (2031-05-12).
    for (const [vendor, due] of [
      ["Globex", "2031-04-30"],
      ["Globex", "2031-03-01"],
      ["Umbrella", "2031-05-20"],
    ] as const) {
      const made = await call(
        "POST",
        "/api/invoices",
        invoiceRequest({
          merchant_email: merchant.email,
          vendor_name: vendor,
          vendor_email: `ap@${vendor.toLowerCase()}.example`,
          issue_date: "2031-01-01",
          due_date: due,
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const report = (await call("GET", "/api/reports/receivables")).body as {
      as_of: string;
      vendors: { vendor_email: string; buckets: Record<string, string>; total: string }[];
      totals: Record<string, string>;
      total: string;
    };
    // Globex (the schedule's invoice bills ap@globex.example too) and Umbrella.
    expect(report.vendors.map((v) => v.vendor_email).sort()).toEqual([
      "ap@globex.example",
      "ap@umbrella.example",
    ]);

    await go("/dashboard/receivables");
    expect(await page.textContent('[data-figure="as-of"]')).toBe(report.as_of);
    const cells = async (vendor: string) =>
      Object.fromEntries(
        await page
          .locator(`tr[data-vendor="${vendor}"] [data-bucket]`)
          .evaluateAll((tds) => tds.map((td) => [td.getAttribute("data-bucket"), td.textContent])),
      );
    for (const vendor of report.vendors)
      expect(await cells(vendor.vendor_email)).toEqual({
        ...vendor.buckets,
        total: vendor.total,
      });
    expect(await cells("total")).toEqual({ ...report.totals, total: report.total });

    // Its CSV link: the API's export, under the session.
    const csv = await page.request.get(`${stack.api.url}/dashboard/exports/receivables.csv`);
    expect(csv.status()).toBe(200);
    const api = await stack.request("/api/exports/receivables.csv", {
      headers: bearer(merchant.key),
    });
    // Byte for byte (the byte order mark included: Response.text() would drop it).
    expect((await csv.body()).equals(Buffer.from(await api.arrayBuffer()))).toBe(true);
    expect((await csv.body()).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    await checkPage(page, "receivables");
    await shoot("receivables");
  });

  test("the reminder policy: a step turned off and the cap changed, as the API reads it", async () => {
    await go("/dashboard/reminders");
    await page.getByLabel("7 days after the due date").uncheck();
    await page.getByLabel("At most this many reminders per invoice").fill("3");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/notice=saved/);
    const policy = (await call("GET", "/api/reminder-policy")).body as Json;
    expect(policy).toMatchObject({
      enabled: true,
      max_reminders: 3,
      steps: [
        { days: -3, enabled: true },
        { days: 0, enabled: true },
        { days: 7, enabled: false },
        { days: 14, enabled: true },
      ],
    });
    await checkPage(page, "reminders");
  });

  test("a schedule created with the dashboard's form: field errors first, then as the API reads it", async () => {
    await go("/dashboard/schedules");
    await page.getByRole("link", { name: "New schedule" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard/schedules/new`);
    await page.getByLabel("How often").selectOption("every_n_days");
    await page.getByLabel("First invoice on").fill("2031-08-01");
    await page.getByLabel("Due after (days)").fill("400");
    await page.getByLabel("Name", { exact: true }).fill("Umbrella Corp");
    await page.getByLabel("Email", { exact: true }).fill("ap@umbrella.example");
    await page.getByLabel("Description").fill("Hosting");
    await page.getByLabel("Quantity").fill("2");
    // Typed as a person types it: read by the dashboard's lenient reading of amounts.
    await page.getByLabel("Unit price (USDC)").fill("19.5");
    await page.getByLabel("Your name on the invoice").fill("Acme Design Studio");
    await page.getByLabel("Your address").fill("1 Market Street");
    await page.getByRole("button", { name: "Create schedule" }).last().click();
    // Refused by the API's own rules, each message at its field; nothing created.
    await expect.poll(() => page.textContent("main")).toContain("The schedule was not created");
    expect(await page.textContent("#n-error")).toContain("is required");
    expect(await page.textContent("#days_until_due-error")).toContain("must be from 0 to 365");
    const before = (await call("GET", "/api/invoice-schedules")).body.data as Json[];
    expect(before.map((s) => (s.invoice as Json).vendor_name)).not.toContain("Umbrella Corp");
    // What was typed is kept.
    expect(await page.getByLabel("Unit price (USDC)").inputValue()).toBe("19.5");
    await checkPage(page, "schedule-new");

    await page.getByLabel("N (days, for every N days)").fill("10");
    await page.getByLabel("Due after (days)").fill("7");
    await page.getByLabel("At most this many invoices").fill("6");
    await page.getByRole("button", { name: "Create schedule" }).last().click();
    await page.waitForURL(/\/dashboard\/schedules\/[0-9a-f-]{36}\?notice=created/);
    const id = /schedules\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? "";
    const created = await call("GET", `/api/invoice-schedules/${id}`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: "active",
      interval: "every_n_days",
      n: 10,
      start_date: "2031-08-01",
      count: 6,
      days_until_due: 7,
      next_issue_date: "2031-08-01",
      invoice: {
        merchant_email: merchant.email,
        vendor_name: "Umbrella Corp",
        vendor_email: "ap@umbrella.example",
        line_items: [{ description: "Hosting", quantity: 2, unit_price: "19.50" }],
        wallet_type: "managed",
      },
    });
    expect(await page.textContent("main")).toContain("The schedule is created");
    await shoot("schedule-new");

    // Changed from its page: the form holds the template; the change is PATCH's.
    await page.getByRole("link", { name: "Change" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard/schedules/${id}/edit`);
    expect(await page.getByLabel("Unit price (USDC)").inputValue()).toBe("19.50");
    expect(await page.getByLabel("At most this many invoices").inputValue()).toBe("6");
    await page.getByLabel("Unit price (USDC)").fill("25");
    await page.getByLabel("Due after (days)").fill("abc");
    await page.getByRole("button", { name: "Save changes" }).last().click();
    await expect.poll(() => page.textContent("main")).toContain("The schedule was not changed");
    expect(await page.textContent("#days_until_due-error")).toContain("whole number");
    await checkPage(page, "schedule-edit");
    await page.getByLabel("Due after (days)").fill("10");
    await page.getByLabel("At most this many invoices").fill("");
    await page.getByRole("button", { name: "Save changes" }).last().click();
    await page.waitForURL(/notice=saved/);
    const changed = await call("GET", `/api/invoice-schedules/${id}`);
    expect(changed.body).toMatchObject({
      interval: "every_n_days",
      start_date: "2031-08-01",
      count: null,
      days_until_due: 10,
      invoice: { line_items: [{ description: "Hosting", quantity: 2, unit_price: "25.00" }] },
    });
    await checkPage(page, "schedule-changed");
  });
});
