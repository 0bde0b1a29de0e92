import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { getMeta } from "unpdf";
import { type Address, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import {
  DASHBOARD_SESSION_ABSOLUTE_MINUTES,
  dashboardCookieName,
  newDashboardSessionToken,
} from "../../domain/dashboardSession.ts";
import { utcToday } from "../../domain/invoiceStatus.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi } from "../refunds/helpers.ts";
import { checkPage, PHONE_390 } from "./dashboard.ts";

/**
 * A merchant's first week, the smaller things of issue 42, in Chromium on the real stack: a
 * merchant added with `--name "Acme Ltd"` finds its name on the settings page and the invoice
 * form; the newest-first list agrees with the invoice numbers; one formatter of amounts (1,000
 * and more with separators) on every page; the payer's page after a refund was paid says so;
 * the invoice detail fits a 390 px phone; the webhook form says the rule this service applies;
 * the CSV headers say their times are UTC and the receivables file is named after the merchant.
 */
describe("a merchant's first week", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;
  let api: ReturnType<typeof invoiceApi>;

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
    ]);
    // As `remit merchants add --email … --name "Acme Ltd"` makes it.
    merchant = await claimedMerchant(stack.db, { name: "Acme Ltd" });
    api = invoiceApi(stack, bearer(merchant.key));
    // Signed in as a sign-in link would (sign-in itself is tested elsewhere; its email is not
    // waited for here): a session, its token in the cookie.
    const token = newDashboardSessionToken();
    await insertDashboardSession(stack.db, {
      merchantId: merchant.merchantId,
      tokenHash: hashSecretToken(token),
      absoluteMinutes: DASHBOARD_SESSION_ABSOLUTE_MINUTES,
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([
      { name: dashboardCookieName(false), value: token, url: stack.api.url },
    ]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
    await chain.revert();
  });

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);

  test("the registered name is on the settings page and the invoice form, typed by nobody", async () => {
    await go("/dashboard/settings");
    expect(await page.getByLabel("Your name on new invoices").inputValue()).toBe("Acme Ltd");
    await checkPage(page, "week-settings", PHONE_390);
    await go("/dashboard/invoices/new");
    expect(await page.getByLabel("Your name on the invoice").inputValue()).toBe("Acme Ltd");
    await checkPage(page, "week-new-invoice", PHONE_390);
  });

  test("newest first: a later number is never an earlier creation time", async () => {
    // A merchant of its own: its invoices' times are moved a minute ahead.
    const other = await claimedMerchant(stack.db);
    const its = invoiceApi(stack, bearer(other.key));
    const mine = { merchant_email: other.email, merchant_name: "Other Traders" };
    const first = await its.create(mine);
    // As if another process's creation, started later, had committed first with a later time.
    // (Invoices are append-only: the trigger is set aside for this one statement.)
    await stack.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update app.invoices set created_at = now() + interval '1 minute' where id = ${first.invoice_id}`.execute(
        trx,
      );
    });
    const second = await its.create(mine);
    const listed = (await (
      await stack.request("/api/invoices?limit=2", { headers: bearer(other.key) })
    ).json()) as { data: { invoice_number: string; created_at: string }[] };
    expect(listed.data.map((i) => i.invoice_number)).toEqual(["INV-0002", "INV-0001"]);
    const [newer, older] = listed.data.map((i) => Date.parse(i.created_at));
    expect(newer).toBeGreaterThan(older ?? Number.NaN);
    // Its PDF was made again for the time stored (its creation date), not the one first used.
    const pdf = await stack.request(`/api/invoices/${second.invoice_id}/pdf`, {
      headers: bearer(other.key),
    });
    const { info } = await getMeta(new Uint8Array(await pdf.arrayBuffer()));
    const stamp = new Date(newer ?? 0).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    expect((info as { CreationDate?: string }).CreationDate).toBe(`D:${stamp}Z`);
  });

  test("the webhook form says the rule this service applies, and applies it", async () => {
    await go("/dashboard/webhooks");
    const hint = (await page.locator("main form").first().textContent()) ?? "";
    // Locally (ALLOW_PRIVATE_WEBHOOKS): loopback is taken, and the form says so.
    expect(hint).toContain("http or https, any host");
    expect(hint).not.toMatch(/^https, on a public host/);
    await page.getByLabel("URL").fill("http://127.0.0.1:4000/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect.poll(() => page.textContent("main")).toContain("Signing secret");
    await go("/dashboard/webhooks");
    await checkPage(page, "week-webhooks", PHONE_390);
  });

  test("amounts of 1,000 and more read the same everywhere; a paid refund is on the payer's page; the detail fits 390 px", async () => {
    const invoice = await api.create({
      merchant_email: merchant.email,
      merchant_name: "Acme Ltd",
      line_items: [{ description: "Retainer", quantity: 1, unit_price: "1234.50" }],
    });
    // Another one left open, for the receivables page.
    await api.create({
      merchant_email: merchant.email,
      merchant_name: "Acme Ltd",
      vendor_email: "ap@initech.example",
      vendor_name: "Initech",
      line_items: [{ description: "Audit", quantity: 1, unit_price: "1500.00" }],
    });
    // 1,000.00 USDC more than due.
    await chain.payUsdc(devAccount(5), invoice.deposit_address as Address, 2_234_500_000n);
    await api.swept(invoice.invoice_id);

    const hosted = `/i/${invoice.slug}`;
    await go(hosted);
    await expect.poll(() => page.locator("#payment").getAttribute("data-state")).toBe("excess");
    expect(await page.textContent(".excessnote")).toContain(
      "You paid 1,000.00 USDC more than the total of 1,234.50 USDC",
    );
    expect(await page.textContent(".excessnote")).toContain("stays with the merchant");

    // The refund, from the dashboard: the same figures on the form and its confirmation.
    await go(`/dashboard/invoices/${invoice.invoice_id}`);
    expect(await page.textContent("#amount-hint")).toContain("Empty: 1,000.00 USDC");
    await page.getByLabel("Amount in USDC").fill("1000");
    const to = freshAddress();
    await page.getByLabel("Send to address").fill(to);
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await page.textContent("h1")).toBe("Refund 1,000.00 USDC?");
    expect(await page.textContent("[data-figure=amount]")).toBe("1,000.00 USDC");
    await page.getByRole("button", { name: "Refund 1,000.00 USDC" }).click();
    await expect
      .poll(() => page.textContent("main .alert"))
      .toContain("1,000.00 USDC is requested");
    const refundId =
      (await api.get(invoice.invoice_id)).refunds.find((r) => r.status !== "failed")?.refund_id ??
      "";
    await api.refundIs(invoice.invoice_id, refundId, "confirmed");

    // The payer's page, once the refund is paid: said, and no "stays with the merchant".
    await go(hosted);
    const note = (await page.textContent("#payment")) ?? "";
    expect(note).toContain("It was refunded to you.");
    expect(note).toContain("Refunded to you: 1,000.00 USDC.");
    expect(note).not.toContain("stays with the merchant");
    await checkPage(page, "week-payer-page-refunded", PHONE_390);

    // The detail at 390 px: the timeline's addresses wrap (it overflowed by ~10 px).
    await go(`/dashboard/invoices/${invoice.invoice_id}`);
    const timeline = (await page.textContent(".timeline")) ?? "";
    expect(timeline).toContain(getAddress(devAccount(5).address));
    expect(timeline).toContain(getAddress(to));
    expect(timeline).toContain("Refund of 1,000.00 USDC");
    await checkPage(page, "week-invoice", PHONE_390);

    // Receivables: the other invoice's 1,500.00, as every other page writes it.
    await go("/dashboard/receivables");
    expect(await page.textContent('[data-vendor="ap@initech.example"] [data-bucket="total"]')).toBe(
      "1,500.00",
    );
    expect(await page.textContent('[data-vendor="total"] [data-bucket="total"]')).toBe("1,500.00");
    await checkPage(page, "week-receivables", PHONE_390);
  });

  test("exports: times said to be UTC; the receivables file named after the merchant", async () => {
    const invoices = await context.request.get(`${stack.api.url}/dashboard/exports/invoices.csv`);
    const rows = parse(await invoices.body(), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0] ?? {})).toEqual(
      expect.arrayContaining(["created_at_utc", "sent_at_utc", "vendor_name", "vendor_email"]),
    );
    expect(Object.keys(rows[0] ?? {})).not.toContain("created_at");
    const payments = await stack.request("/api/exports/payments.csv?bom=false", {
      headers: bearer(merchant.key),
    });
    expect((await payments.text()).split("\r\n")[0]?.split(",")[0]).toBe("paid_at_utc");

    const name = `attachment; filename="acme-ltd_receivables_${utcToday()}.csv"`;
    const dashboard = await context.request.get(
      `${stack.api.url}/dashboard/exports/receivables.csv`,
    );
    expect(dashboard.headers()["content-disposition"]).toBe(name);
    const fromApi = await stack.request("/api/exports/receivables.csv", {
      headers: bearer(merchant.key),
    });
    expect(fromApi.headers.get("content-disposition")).toBe(name);
    // The exports' note says what the columns are.
    await go("/dashboard/payments");
    expect(await page.textContent("main")).toContain("columns ending _utc");
    await screenshot(page, "dashboard-week-exports-desktop");
  });
});
