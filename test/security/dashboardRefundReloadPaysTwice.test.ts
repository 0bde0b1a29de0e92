import type { Browser, BrowserContext, Page } from "playwright-core";
import { type Address, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant, registerWallet } from "../accounts/accounts.ts";
import { checkPage, signInByFetch } from "../dashboard/dashboard.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, priced, until } from "../refunds/helpers.ts";

/**
 * The attack: on an invoice paid 170.00 for 150.00 (`managed`), "Request refund…" → "Refund
 * 20.00 USDC" refunded the excess; reloading the page the confirmation answered with (a page
 * returned to the POST) submitted it again, and 20.00 more left the merchant's managed wallet.
 * Now a confirmation carries a one-time action key and answers POST → 303 → GET: reloads and
 * double clicks pay once, in Chromium, for refunds and for the managed wallet's withdrawals.
 */
describe("a dashboard refund or withdrawal is paid once, however often it is submitted", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;
  let invoiceId = "";

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
    ]);
    merchant = await claimedMerchant(stack.db);
    const { cookie } = await signInByFetch(stack, merchant.email);
    const [name, value] = cookie.split("=") as [string, string];
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name, value, url: stack.api.url }]);
    page = await context.newPage();
    const api = invoiceApi(stack, bearer(merchant.key));
    const invoice = await api.create({
      ...priced("150.00"),
      merchant_email: merchant.email,
      wallet_type: "managed",
    });
    invoiceId = invoice.invoice_id;
    await chain.payUsdc(devAccount(9), invoice.deposit_address, 170_000_000n);
    await api.swept(invoiceId);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
    await chain.revert();
  });

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);
  /**
   * Waits for the page a double click lands on. The second click's navigation aborts the
   * first's (net::ERR_ABORTED), which only means the browser followed the later one: wait again.
   */
  const landOn = async (url: RegExp) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await page.waitForURL(url);
        return;
      } catch (error) {
        if (attempt > 3 || !String(error).includes("ERR_ABORTED")) throw error;
      }
    }
  };
  const refunds = () =>
    stack.db.selectFrom("app.refunds").select(["amount", "source"]).orderBy("created_at").execute();

  test("the excess refunded, the page reloaded three times: one refund", async () => {
    await go(`/dashboard/invoices/${invoiceId}`);
    expect(await page.textContent("#amount-hint")).toContain("Empty: 20.00 USDC");
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await page.textContent("h1")).toBe("Refund 20.00 USDC?");
    await checkPage(page, "refund-confirm");
    await page.getByRole("button", { name: "Refund 20.00 USDC" }).click();
    await page.waitForURL(/refund_action=/);
    expect(await page.textContent("main .alert")).toContain("20.00 USDC is requested");
    await checkPage(page, "refund-requested");
    for (let reload = 0; reload < 3; reload++) {
      await page.reload();
      expect(await page.textContent("main .alert")).toContain("20.00 USDC is requested");
    }
    expect(await refunds()).toEqual([{ amount: 20_000_000n, source: "deposit" }]);
    // Nothing held is left: the form's default says so instead of offering revenue.
    await go(`/dashboard/invoices/${invoiceId}`);
    expect(await page.textContent("#amount-hint")).toContain("explicit `amount`");
  });

  test("a refund of revenue confirmed by a double click, then its form posted again: one refund", async () => {
    await go(`/dashboard/invoices/${invoiceId}`);
    await page.getByLabel("Amount in USDC").fill("5");
    await page.getByLabel("Send to address").fill(freshAddress());
    await page.getByRole("button", { name: "Request refund" }).click();
    expect(await page.textContent("h1")).toBe("Refund 5.00 USDC?");
    // What the browser resends on a reload or a back button: the same form, the same key.
    const form = await page.evaluate(() => {
      const confirm = document.querySelector<HTMLFormElement>("form.actions");
      if (!confirm) throw new Error("no confirmation form");
      return Object.fromEntries(
        Array.from(confirm.querySelectorAll("input")).map((input) => [input.name, input.value]),
      ) as Record<string, string>;
    });
    await page.getByRole("button", { name: "Refund 5.00 USDC" }).dblclick();
    await landOn(/refund_action=/);
    const resent = await page.evaluate(
      async ({ action, fields }) =>
        (await fetch(action, { method: "POST", body: new URLSearchParams(fields) })).url,
      { action: `/dashboard/invoices/${invoiceId}/refunds`, fields: form },
    );
    expect(resent).toContain(`refund_action=${encodeURIComponent(form.idempotency_key ?? "")}`);
    expect(await refunds()).toEqual([
      { amount: 20_000_000n, source: "deposit" },
      { amount: 5_000_000n, source: "managed_wallet" },
    ]);
  });

  test("withdraw from the managed wallet: confirmed by a double click and reloaded, paid once", async () => {
    const wallet = getAddress(freshAddress());
    expect((await registerWallet(stack, merchant, wallet)).status).toBe(201);
    await go("/dashboard/settings");
    // 150.00 swept in; the 5.00 refund on its way (or done) is not available.
    expect(await page.textContent("[data-figure=balance]")).toMatch(/1(50|45)\.00 USDC/);
    expect(await page.textContent("[data-figure=available]")).toContain("145.00 USDC");
    await checkPage(page, "settings-withdraw");
    await page.getByLabel("Amount in USDC").fill("12.5");
    await page.getByRole("button", { name: "Withdraw" }).click();
    expect(await page.textContent("h1")).toBe("Withdraw 12.50 USDC?");
    expect(await page.textContent("[data-figure=to]")).toContain(wallet);
    await checkPage(page, "payout-confirm");
    await page.getByRole("button", { name: "Withdraw 12.50 USDC" }).dblclick();
    await landOn(/payout_action=/);
    expect(await page.textContent("main .alert")).toContain("payout of 12.50 USDC");
    await page.reload();
    await checkPage(page, "payout-requested");
    // Nothing wider than the phone's screen: the alert's address wraps.
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      420,
    );
    const payouts = await stack.db.selectFrom("app.payouts").select("amount").execute();
    expect(payouts).toEqual([{ amount: 12_500_000n }]);
    await until("the payout arrived", async () =>
      (await chain.usdcBalance(wallet as Address)) === 12_500_000n ? true : undefined,
    );
  });
}, 600_000);
