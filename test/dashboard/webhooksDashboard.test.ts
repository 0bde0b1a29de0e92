import type { Browser, BrowserContext, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { type ReceivedWebhook, startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { priced, until } from "../refunds/helpers.ts";
import { checkPage, signedInPage, WIDTHS } from "./dashboard.ts";

/** The widths these pages are looked at: a small phone and a desktop. */
const SIZES = { phone: { width: 390, height: 844 }, desktop: WIDTHS.desktop };

const payloadOf = (delivery: ReceivedWebhook) =>
  JSON.parse(delivery.body) as { event_id: string; type: string; endpoint_id?: string };

/** Whether a delivery verifies with `secret` the Standard Webhooks way (the npm package). */
const verifies = (secret: string, delivery: ReceivedWebhook): boolean => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/**
 * The dashboard's webhook endpoints and event log in Chromium, on the real stack (API, worker,
 * indexer, anvil with real USDC) and a local receiver: one merchant's session runs through the
 * tests in order. Every page is checked at 390 and 1280 px (no sideways overflow, axe-core, a
 * screenshot in test-artifacts/).
 */
describe("webhook endpoints and events in the dashboard", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Merchant;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let endpointPath = "";
  let secret = "";

  beforeAll(async () => {
    await chain.snapshot();
    [stack, browser, receiver] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
      startWebhookReceiver(),
    ]);
    merchant = await claimedMerchant(stack.db);
    ({ context, page } = await signedInPage(stack, browser, merchant.email));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.stop();
    await stack?.stop();
    await chain.revert();
  });

  const go = (path: string) => page.goto(`${stack.api.url}${path}`);
  const received = (type: string) => receiver.received.filter((d) => payloadOf(d).type === type);

  test("adds an endpoint for invoice.paid only and shows its secret once", async () => {
    await go("/dashboard/webhooks");
    expect(await page.textContent("main")).toContain("No endpoints yet.");
    await checkPage(page, "webhooks-empty", SIZES);

    await page.getByLabel("URL").fill(receiver.url);
    await page.getByLabel("invoice.paid", { exact: true }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect.poll(() => page.textContent("main h1")).toBe("Endpoint added");
    secret = (await page.textContent("#webhook-secret")) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await checkPage(page, "webhook-secret", SIZES);
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select(["actor", "action"])
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "like", "webhook_endpoint.%")
      .execute();
    expect(audit).toEqual([{ actor: "dashboard", action: "webhook_endpoint.created" }]);

    // Never again: not on the endpoint's page, nor in the list.
    await page.getByRole("link", { name: "Go to the endpoint" }).click();
    endpointPath = new URL(page.url()).pathname;
    expect(endpointPath).toMatch(/^\/dashboard\/webhooks\/[0-9a-f-]{36}$/);
    expect(await page.content()).not.toContain(secret);
    expect(await page.textContent("main")).toContain("invoice.paid");
    expect(await page.getByLabel("invoice.paid", { exact: true }).isChecked()).toBe(true);
    await go("/dashboard/webhooks");
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await checkPage(page, "webhooks", SIZES);
  });

  test("sends a test event: it arrives signed with the secret and shows in the delivery log", async () => {
    await go(endpointPath);
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect.poll(() => page.textContent("main .alert")).toContain("A test event is queued");
    const delivery = await until("the test event", async () => received("webhook.test")[0]);
    expect(verifies(secret, delivery)).toBe(true);
    expect(payloadOf(delivery).endpoint_id).toBe(endpointPath.split("/").at(-1));
    await expect
      .poll(
        async () => {
          await go(endpointPath);
          return page.locator("tbody tr [data-response-code]").first().textContent();
        },
        { timeout: EVENT_MS, interval: 500 },
      )
      .toBe("HTTP 200");
    const row = page.locator("tbody tr").first();
    expect(await row.locator(".badge").textContent()).toBe("delivered");
    expect(await row.locator("code").textContent()).toBe("webhook.test");
    await checkPage(page, "webhook-endpoint", SIZES);
  });

  test("an invoice paid in full reaches it; one paid in part does not; both are in the event log", async () => {
    const create = async () => {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(merchant.key),
        json: invoiceRequest({ merchant_email: merchant.email, ...priced("2.00") }),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { invoice_id: string; deposit_address: Address };
    };
    const partly = await create();
    const fully = await create();
    await chain.payUsdc(devAccount(2), partly.deposit_address, 1_000_000n);
    await chain.payUsdc(devAccount(2), fully.deposit_address, 2_000_000n);
    const paid = await until("the invoice.paid delivery", async () => received("invoice.paid")[0]);
    expect(verifies(secret, paid)).toBe(true);

    // The log, newest first, filtered by type.
    await expect
      .poll(
        async () => {
          await go("/dashboard/events");
          // The two payments' events come in the order the worker reconciles them.
          return (await page.locator("tbody tr code").allTextContents()).sort();
        },
        { timeout: EVENT_MS, interval: 500 },
      )
      .toEqual(["invoice.paid", "invoice.partial", "webhook.test"]);
    const times = await page
      .locator("tbody tr time")
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime") ?? ""));
    expect([...times].sort().reverse()).toEqual(times);
    await checkPage(page, "events", SIZES);
    await page.getByLabel("Type").selectOption("invoice.partial");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/type=invoice.partial/);
    expect(await page.locator("tbody tr code").allTextContents()).toEqual(["invoice.partial"]);
    // Filtered out by the endpoint: sent nowhere.
    await page.locator("tbody tr a", { hasText: "invoice.partial" }).click();
    await page.waitForURL(/\/dashboard\/events\/[0-9a-f-]{36}$/);
    expect(await page.textContent("main")).toContain("It was sent nowhere");
    expect(received("invoice.partial")).toEqual([]);

    // The paid event's page: its payload as delivered, its delivery to the endpoint.
    const paidId = payloadOf(paid).event_id;
    await go(`/dashboard/events/${paidId}`);
    expect(JSON.parse((await page.textContent("pre.payload")) ?? "")).toEqual(
      JSON.parse(paid.body),
    );
    await expect
      .poll(
        async () => {
          await go(`/dashboard/events/${paidId}`);
          return page.locator("tbody tr [data-response-code]").textContent();
        },
        { timeout: EVENT_MS, interval: 500 },
      )
      .toBe("HTTP 200");
    const delivery = page.locator("tbody tr");
    expect(await delivery.count()).toBe(1);
    expect(await delivery.locator("a").textContent()).toBe(receiver.url);
    expect(await delivery.locator(".badge").textContent()).toBe("delivered");
    await checkPage(page, "event", SIZES);
    await delivery.locator("a").click();
    expect(new URL(page.url()).pathname).toBe(endpointPath);
    expect(await page.locator("tbody tr code").allTextContents()).toEqual([
      "invoice.paid",
      "webhook.test",
    ]);
  });

  test("rotates the secret: a new one shown once, both sign during the overlap", async () => {
    await go(endpointPath);
    await page.getByRole("button", { name: "Rotate the secret" }).click();
    await expect.poll(() => page.textContent("main h1")).toBe("New signing secret");
    const rotated = (await page.textContent("#webhook-secret")) ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await checkPage(page, "webhook-rotated", SIZES);
    await go(endpointPath);
    expect(await page.content()).not.toContain(rotated);
    expect(await page.textContent("main")).toContain("the one before it also signs until");

    await page.getByRole("button", { name: "Send a test event" }).click();
    const second = await until("the second test event", async () => received("webhook.test")[1]);
    expect(verifies(rotated, second)).toBe(true);
    expect(verifies(secret, second)).toBe(true);
  });

  test("disables the endpoint, and enables it again", async () => {
    await go(endpointPath);
    await page.getByRole("button", { name: "Disable" }).click();
    await expect.poll(() => page.textContent("main .alert")).toContain("is disabled");
    expect(await page.locator("dl.facts .badge").textContent()).toBe("disabled");
    const row = await stack.db
      .selectFrom("app.webhook_endpoints")
      .select("enabled")
      .where("url", "=", receiver.url)
      .executeTakeFirstOrThrow();
    expect(row.enabled).toBe(false);
    await go("/dashboard/webhooks");
    expect(await page.locator("tbody tr .badge").textContent()).toBe("disabled");
    await go(endpointPath);
    await page.getByRole("button", { name: "Enable" }).click();
    await expect.poll(() => page.textContent("main .alert")).toContain("is enabled");
    const actions = await stack.db
      .selectFrom("app.audit_log")
      .select("action")
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "like", "webhook_endpoint.%")
      .orderBy("created_at")
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      "webhook_endpoint.created",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.updated",
      "webhook_endpoint.updated",
    ]);
  });

  test("refuses an ftp URL and an 11th test event in an hour with the API's messages, and deletes the endpoint", async () => {
    await go(endpointPath);
    await page.getByLabel("URL").fill("ftp://hooks.example.com/remit");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.textContent("#url-error")).toBe("must be an http(s) URL");
    // The hourly test events used up (two sent above): the page says when to try again.
    const id = endpointPath.split("/").at(-1);
    for (let sent = 2; sent < 10; sent++) {
      const response = await stack.request(`/api/webhook-endpoints/${id}/test`, {
        method: "POST",
        headers: bearer(merchant.key),
      });
      expect(response.status).toBe(202);
    }
    await go(endpointPath);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/test")),
      page.getByRole("button", { name: "Send a test event" }).click(),
    ]);
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    await expect
      .poll(() => page.textContent("main .alert"))
      .toMatch(/at most 10 test events an hour: try again in \d+ minutes?\./);
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.waitForURL(/\/dashboard\/webhooks\?notice=deleted$/);
    expect(await page.textContent("main")).toContain("No endpoints yet.");
    expect((await page.goto(`${stack.api.url}${endpointPath}`))?.status()).toBe(404);
  });
});
