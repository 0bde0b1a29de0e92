import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startHostSite } from "../helpers/hostSite.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { checkPage, waitForSignInLink } from "./dashboard.ts";

/**
 * The dashboard in Chromium on the real stack (API, worker, indexer, anvil with real USDC):
 * every page is checked at phone and desktop width (no sideways overflow, axe-core, a
 * screenshot in test-artifacts/). One merchant's session runs through the tests in order.
 */
describe("the merchant's dashboard in a browser", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let invoicePath = "";

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser, receiver] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
      startWebhookReceiver(),
    ]);
    merchant = await claimedMerchant(stack.db, { name: "Acme Design Studio" });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

  test("signs in through the email link from the outbox", async () => {
    await go("/dashboard");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await checkPage(page, "sign-in");
    await page.getByLabel("Your merchant account's email").fill(merchant.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect
      .poll(() => page.textContent("main"))
      .toContain("a sign-in link valid for 30 minutes");
    await checkPage(page, "sign-in-sent");

    const link = await waitForSignInLink(stack, merchant.email);
    await page.goto(link);
    await checkPage(page, "sign-in-confirm");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${stack.api.url}/dashboard`);
    expect(await page.textContent(".who")).toContain(merchant.email);
    const [cookie] = await context.cookies();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    await checkPage(page, "overview-empty");
  });

  test("creates an invoice through the form: live totals, the API's validation messages", async () => {
    await go("/dashboard/invoices/new");
    await page.getByLabel("Name", { exact: true }).fill("Globex Corporation");
    await page.getByLabel("Email", { exact: true }).fill("ap@globex.example");
    await page.locator('[name="line_items[0].description"]').fill("Design work");
    await page.locator('[name="line_items[0].quantity"]').fill("2");
    await page.locator('[name="line_items[0].unit_price"]').fill("75.00");
    await expect.poll(() => page.textContent("#invoice-total")).toBe("150.00 USDC");
    await page.getByRole("button", { name: "Add a line" }).click();
    await page.locator('[name="line_items[1].description"]').fill("Hosting");
    await page.locator('[name="line_items[1].quantity"]').fill("1");
    await page.locator('[name="line_items[1].unit_price"]').fill("12.5");
    await expect.poll(() => page.textContent("#invoice-total")).toBe("162.50 USDC");
    // A third line, removed again.
    await page.getByRole("button", { name: "Add a line" }).click();
    await page.locator('[name="line_items[2].description"]').fill("Oops");
    await page.getByRole("button", { name: "Remove line 3" }).click();
    expect(await page.locator('[name="line_items[2].description"]').count()).toBe(0);
    await page.getByLabel("Your name on the invoice").fill("Acme Design Studio");
    await page.getByLabel("Your address").fill("1 Market St, San Francisco");
    await page.getByLabel("Webhook URL").fill(receiver.url);
    // No due date: the API's own message, next to the field; nothing is created.
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    await expect.poll(() => page.textContent("#due_date-error")).toBe("is required");
    expect(await page.locator('[name="line_items[1].unit_price"]').inputValue()).toBe("12.5");
    await checkPage(page, "new-invoice-errors");

    await page.getByLabel("Due date").fill("2030-12-31");
    await page.getByRole("button", { name: "Create invoice" }).last().click();
    await page.waitForURL(/\/dashboard\/invoices\/[0-9a-f-]{36}\?notice=created$/);
    invoicePath = new URL(page.url()).pathname;
    expect(await page.textContent("main")).toContain("The invoice is created.");
    expect(await page.textContent("main h2")).toContain("162.50 USDC");
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select("actor")
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "=", "invoice.created")
      .execute();
    expect(audit.map((a) => a.actor)).toEqual(["dashboard"]);
  });

  test("sees it paid after an on-chain payment, with the transaction and the webhook's response code", async () => {
    const invoice = await stack.db
      .selectFrom("app.invoices")
      .select(["deposit_address", "total_amount"])
      .where("merchant_id", "=", merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(invoice.total_amount).toBe(162_500_000n);
    const receipt = await chain.payUsdc(
      devAccount(3),
      invoice.deposit_address as Address,
      162_500_000n,
    );
    await expect
      .poll(
        async () => {
          await go(invoicePath);
          return page.locator("main h2 .badge").textContent();
        },
        { timeout: EVENT_MS, interval: 500 },
      )
      .toBe("paid");
    await expect
      .poll(
        async () => {
          await go(invoicePath);
          return page.locator("[data-response-code]").count();
        },
        { timeout: EVENT_MS, interval: 500 },
      )
      .toBeGreaterThan(0);
    const timeline = (await page.textContent(".timeline")) ?? "";
    expect(timeline).toContain(receipt.transactionHash);
    expect(timeline).toContain("HTTP 200");
    expect(timeline).toContain("Invoice emailed to the customer");
    await checkPage(page, "invoice-paid");

    await go("/dashboard");
    expect(await page.textContent("[data-figure=received]")).toBe("162.50 USDC");
    await checkPage(page, "overview");
    await go("/dashboard/payments");
    expect(await page.textContent("main")).toContain("162.50 USDC");
    await checkPage(page, "payments");
    await go("/dashboard/invoices?q=globex");
    expect(await page.locator("tbody tr").count()).toBe(1);
    await checkPage(page, "invoices");
    await go("/dashboard/invoices?q=nobody-at-all");
    expect(await page.textContent("main")).toContain("No invoices match.");
  });

  test("exports the invoices and payments as CSV, under the session", async () => {
    await go("/dashboard/payments");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export payments (CSV)" }).click(),
    ]);
    const payments = parse(await readFile((await download.path()) ?? ""), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(payments).toHaveLength(1);
    expect(Object.values(payments[0] ?? {})).toContain("162.50");
    const invoices = await context.request.get(
      `${stack.api.url}/dashboard/exports/invoices.csv?from=&to=`,
    );
    expect(invoices.status()).toBe(200);
    const rows = parse(await invoices.body(), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => r.description)).toEqual(["Design work", "Hosting"]);
    expect(rows.every((r) => r.invoice_number === "INV-0001" && r.invoice_total === "162.50")).toBe(
      true,
    );
    // Without the session: back to sign-in, no CSV.
    const anonymous = await fetch(`${stack.api.url}/dashboard/exports/invoices.csv`, {
      redirect: "manual",
    });
    expect(anonymous.status).toBe(303);
    const reversed = await context.request.get(
      `${stack.api.url}/dashboard/exports/invoices.csv?from=2030-01-05&to=2030-01-01`,
    );
    expect(reversed.status()).toBe(400);
  });

  test("redelivers a webhook", async () => {
    await go(invoicePath);
    const before = receiver.received.length;
    await page.getByRole("button", { name: "Redeliver webhook" }).last().click();
    await page.waitForURL(/notice=redelivered/);
    expect(await page.textContent("main")).toContain("queued for redelivery");
    await expect.poll(() => receiver.received.length, { timeout: EVENT_MS }).toBe(before + 1);
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select("actor")
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "=", "webhook.redelivered")
      .execute();
    expect(audit.map((a) => a.actor)).toEqual(["dashboard"]);
  });

  test("voids an unpaid invoice; a paid one offers a refund instead, with the API's messages", async () => {
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: merchant.email }),
      headers: bearer(merchant.key),
    });
    expect(created.status).toBe(201);
    const unpaid = (await created.json()) as { invoice_id: string };
    await go(`/dashboard/invoices/${unpaid.invoice_id}`);
    expect(await page.getByRole("button", { name: "Request refund" }).count()).toBe(0);
    await page.getByRole("button", { name: "Void invoice" }).click();
    // A second screen names what is voided; only its button does it.
    await page.getByRole("button", { name: "Void invoice INV-0002" }).click();
    await page.waitForURL(/notice=voided/);
    expect(await page.textContent("main")).toContain("The invoice is void.");
    expect(await page.textContent("main")).toContain("Voided");
    expect(await page.getByRole("button", { name: "Void invoice" }).count()).toBe(0);
    const status = await stack.request(`/api/invoices/${unpaid.invoice_id}/status`);
    expect(((await status.json()) as { status: string }).status).toBe("void");
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select("actor")
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "=", "invoice.voided")
      .execute();
    expect(audit.map((a) => a.actor)).toEqual(["dashboard"]);
    await checkPage(page, "invoice-void");

    // The paid invoice: no void, a refund form answering with the API's own field message.
    await go(invoicePath);
    expect(await page.getByRole("button", { name: "Void invoice" }).count()).toBe(0);
    await page.getByLabel("Amount in USDC").fill("a lot");
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await page.locator(".alert").first().textContent()).toContain("not requested");
    expect(await page.textContent("#amount-error")).toBe(
      "a lot: not a USDC amount such as 100 or 12.50",
    );
    expect(await page.getByLabel("Amount in USDC").inputValue()).toBe("a lot");
    expect(
      await stack.db.selectFrom("app.refunds").select("id").execute(),
      "a refused refund writes nothing",
    ).toEqual([]);
    await checkPage(page, "invoice-refund-refused");
  });

  test("creates a key (shown once) and revokes it", async () => {
    await go("/dashboard/keys");
    await page.getByLabel("What it is for").fill("accounting export");
    await page.getByLabel("Scope").selectOption("read");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = ((await page.textContent("#api-key")) ?? "").trim();
    expect(key).toMatch(/^remit_rk_/);
    await checkPage(page, "keys-created");
    expect((await stack.request("/api/keys", { headers: bearer(key) })).status).toBe(200);
    // Shown once: the list never shows it again.
    await go("/dashboard/keys");
    expect(await page.content()).not.toContain(key);
    await page
      .getByRole("button", { name: `Revoke key accounting export ending in ${key.slice(-4)}` })
      .click();
    await page.waitForURL(/notice=revoked/);
    expect((await stack.request("/api/keys", { headers: bearer(key) })).status).toBe(401);
    await checkPage(page, "keys");
  });

  test("links: create one, see its snippets; settings", async () => {
    await go("/dashboard/links/new");
    await checkPage(page, "new-link");
    await page.getByLabel("What it is for").fill("Workshop ticket");
    await page.getByLabel("Amount (USDC)").fill("25.00");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.waitForURL(/\/dashboard\/links\/[^/]+\?notice=created$/);
    expect(await page.textContent("#snippet-iframe")).toContain("<iframe src=");
    expect(await page.textContent("#snippet-widget")).toContain("/w.js");
    await checkPage(page, "link");
    await go("/dashboard/links");
    expect(await page.textContent("main")).toContain("Workshop ticket");
    await checkPage(page, "links");

    await go("/dashboard/settings");
    await page.getByLabel("Your name on new invoices").fill("Acme Design Studio");
    // The underpayment tolerance: the API's cap and message, then a value kept.
    await page.getByLabel("Underpayment tolerance (USDC)").fill("25.00");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.textContent("#underpayment_tolerance-error")).toContain("at most 10.00");
    await page.getByLabel("Underpayment tolerance (USDC)").fill("0.50");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/notice=saved/);
    expect(await page.getByLabel("Underpayment tolerance (USDC)").inputValue()).toBe("0.50");
    const settings = await stack.request("/api/merchant/settings", {
      headers: bearer(merchant.key),
    });
    expect(await settings.json()).toEqual({ underpayment_tolerance: "0.50" });
    await page
      .getByLabel("Add a wallet (EIP-55 address on Base)")
      .fill("0x0000000000000000000000000000000000000000");
    await page.getByRole("button", { name: "Add wallet" }).click();
    expect(await page.textContent("#address-error")).toContain("zero address");
    await checkPage(page, "settings");
    await go("/dashboard/invoices/new");
    expect(await page.getByLabel("Your name on the invoice").inputValue()).toBe(
      "Acme Design Studio",
    );
  });

  test("a forged form post is refused, from another site or without the CSRF token", async () => {
    const keysBefore = await stack.db
      .selectFrom("app.api_keys")
      .select("id")
      .where("merchant_id", "=", merchant.merchantId)
      .execute();
    // Another site (same host, another port: the cookie is sent along) auto-submits a form.
    const evil = await startHostSite(
      `<!doctype html><form id="f" method="post" action="${stack.api.url}/dashboard/keys"><input name="name" value="evil"><input name="scope" value="write"></form><script>document.getElementById("f").submit()</script>`,
    );
    try {
      const forged = await context.newPage();
      const answered = forged.waitForResponse((r) => r.url().endsWith("/dashboard/keys"));
      await forged.goto(evil.url);
      const response = await answered;
      expect(response.status()).toBe(403);
      expect(await forged.textContent("h1")).toBe("Request refused");
      await checkPage(forged, "refused");
      await forged.close();
    } finally {
      await evil.stop();
    }
    // Our own origin, but a form without the token (as an injected form would be).
    await go("/dashboard/keys");
    const status = await page.evaluate(async () => {
      const response = await fetch("/dashboard/keys", {
        method: "POST",
        body: new URLSearchParams({ name: "injected", scope: "write" }),
      });
      return response.status;
    });
    expect(status).toBe(403);
    const keysAfter = await stack.db
      .selectFrom("app.api_keys")
      .select("id")
      .where("merchant_id", "=", merchant.merchantId)
      .execute();
    expect(keysAfter).toHaveLength(keysBefore.length);
  });

  test("signs out: the session is deleted and the cookie no longer opens the dashboard", async () => {
    await go("/dashboard");
    const [cookie] = await context.cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/dashboard\/sign-in\?signed_out=1$/);
    expect(await page.textContent("main")).toContain("You are signed out.");
    await go("/dashboard/keys");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    const replayed = await stack.request("/dashboard", {
      headers: { cookie: `${cookie?.name}=${cookie?.value}` },
      redirect: "manual",
    });
    expect(replayed.status).toBe(303);
    const sessions = await stack.db
      .selectFrom("app.dashboard_sessions")
      .select("id")
      .where("merchant_id", "=", merchant.merchantId)
      .execute();
    expect(sessions).toEqual([]);
  });
});
