import type { Browser, Page } from "playwright-core";
import { type Address, type Hash, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds, setLocalFeedRound } from "../../chain/localFeeds.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { parseFeedAnswer } from "../../domain/rates.ts";
import { createEurInvoice } from "../currencies/eurInvoices.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startHostSite } from "../helpers/hostSite.ts";
import { injectWallet, type WalletScenario } from "../helpers/injectedWallet.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { createInvoiceOn, expectPaidWebhook } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;

/** Phone and desktop, the widths of the screenshots of every step. */
const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
type Size = keyof typeof VIEWPORTS;
const SIZES = Object.keys(VIEWPORTS) as Size[];

/**
 * Once a payment is submitted the page polls every second; then indexing, the reconcile job
 * and a loaded machine: seconds, not milliseconds.
 */
const COUNTED_MS = 90_000;
/**
 * A step the page takes on its own (a relayed submission, a refusal said): a second or two on a
 * quiet machine, over 20 s with a test run and two other jobs on two cores. An upper bound.
 */
const EVENT_MS = 60_000;

describe("paying with a browser wallet (EIP-1193 wallet injected, anvil signing) in real Chromium", () => {
  const chain = useChainForFile();
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey).address;
  /** Holds USDC and no ETH: pays gaslessly or not at all. */
  const gaslessPayer = devAccount(6);
  /** Holds USDC and ETH: sends a plain transfer. */
  const plainPayer = devAccount(7);
  /** Holds 1 USDC only. */
  const poorPayer = devAccount(8);
  let stack: TestStack;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({ address: relayer, value: parseEther("1") });
    await chain.client.setBalance({ address: gaslessPayer.address, value: 0n });
    const poorUsdc = await chain.usdcBalance(poorPayer.address);
    await chain.payUsdc(poorPayer, devAccount(5).address, poorUsdc - 1_000_000n);
    receiver = await startWebhookReceiver();
    [stack, browser] = await Promise.all([
      startStack({
        worker: true,
        indexer: true,
        // Short, so that the queued payment of the last test is answered 202 soon; the page
        // follows a 202 as well as it takes a 200.
        env: { RELAYER_PRIVATE_KEY: relayerKey, RELAYER_SUBMIT_WAIT_MS: "3000" },
      }),
      launchBrowser(),
    ]);
  });
  /** The worker the last test starts after stopping the stack's own. */
  let replacement: TestProcess | undefined;
  afterAll(async () => {
    await replacement?.stop();
    await browser?.close();
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  const createLink = async (overrides: Json = {}) =>
    (await (
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({ amount: "12.50", description: "Order #77 — 2 coffees", ...overrides }),
      })
    ).json()) as Json & {
      slug: string;
      deposit_address: Address;
      payment_link: string;
      js_widget_snippet: string;
    };
  const walletPage = async (size: Size, scenario: WalletScenario) => {
    const page = await browser.newPage({ viewport: VIEWPORTS[size] });
    const wallet = await injectWallet(page, chain.url, scenario);
    return { page, wallet };
  };
  const payButton = (page: Page) => page.locator("[data-wallet-pay]");
  /**
   * Holds the page's status polls (its frames' too) until the returned function is called: the
   * step before "paid" stays on screen to be looked at, however fast the payment counts.
   */
  const holdStatusPolls = async (page: Page) => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/payments/status/**", async (route) => {
      await gate;
      await route.continue();
    });
    return release;
  };
  const statusText = async (page: Page) =>
    (await page.locator("[data-wallet-status]").textContent()) ?? "";
  const storedAuthorizations = async (deposit: Address) =>
    stack.db
      .selectFrom("app.payer_authorizations")
      .selectAll()
      .where("deposit_address", "=", deposit.toLowerCase())
      .execute();

  test.each(SIZES)(
    "gasless at %s width: a payer with USDC and 0 ETH pays an invoice; the page reaches paid; the merchant's email and webhook follow",
    async (size) => {
      const invoice = await createInvoiceOn(stack.api.url, receiver.url);
      // On the phone the wallet starts on Ethereum and does not know Base: asked to switch, it
      // answers 4902, so the page adds Base first.
      const scenario: WalletScenario =
        size === "phone"
          ? { account: gaslessPayer.address, chainId: 1, lacksBase: true }
          : { account: gaslessPayer.address };
      const { page, wallet } = await walletPage(size, scenario);
      const payerNonce = await chain.client.getTransactionCount({ address: gaslessPayer.address });
      await page.goto(invoice.invoice_url as string);
      await payButton(page).waitFor();
      // The QR code and the copy fields stay for phones and exchanges.
      expect(await page.isVisible(".qr svg")).toBe(true);
      expect(await page.textContent("#pay-amount")).toBe("150.00");
      await screenshot(page, `wallet-gasless-${size}-1-ready`);

      const releaseStatus = await holdStatusPolls(page);
      const switching = size === "phone" ? wallet.pause("wallet_addEthereumChain") : null;
      const signing = wallet.pause("eth_signTypedData_v4");
      await payButton(page).click();
      if (switching) {
        await switching.reached;
        expect(await statusText(page)).toBe("Adding Base to Test Wallet…");
        await screenshot(page, `wallet-gasless-${size}-2-switching`);
        switching.release();
      }
      await signing.reached;
      expect(await statusText(page)).toBe(
        "Sign the payment of 150.00 USDC in Test Wallet. It costs you no gas.",
      );
      await screenshot(page, `wallet-gasless-${size}-3-signing`);
      signing.release();

      await page.waitForSelector("[data-wallet-status][data-step=submitted]", {
        timeout: EVENT_MS,
      });
      expect(await statusText(page)).toMatch(
        /^Submitted: transaction 0x.+Waiting for it to be counted…$/,
      );
      await screenshot(page, `wallet-gasless-${size}-4-submitted`);
      const txHash = (await page.getAttribute("[data-tx]", "title")) as Hash;
      releaseStatus();

      await page.waitForSelector("#payment[data-state=paid]", { timeout: COUNTED_MS });
      expect(await page.isVisible(".done")).toBe(true);
      await screenshot(page, `wallet-gasless-${size}-5-paid`);

      // The relayer sent it and paid its gas; the payer sent nothing and still has no ETH.
      const receipt = await chain.client.getTransactionReceipt({ hash: txHash });
      expect([receipt.status, receipt.from]).toEqual(["success", relayer.toLowerCase()]);
      expect(await chain.client.getBalance({ address: gaslessPayer.address })).toBe(0n);
      expect(await chain.client.getTransactionCount({ address: gaslessPayer.address })).toBe(
        payerNonce,
      );
      expect(wallet.calls).not.toContain("eth_sendTransaction");
      if (size === "phone")
        expect(wallet.calls).toEqual(
          expect.arrayContaining(["wallet_switchEthereumChain", "wallet_addEthereumChain"]),
        );
      expect(wallet.chainId()).toBe(8453);

      // Counted like any payment: the webhook and the merchant's email follow.
      await expectPaidWebhook(receiver.received, invoice, txHash);
      const email = await stack.waitForEmail(
        (e) => e.subject.includes("is paid in full") && (e.text ?? "").includes(txHash),
      );
      expect(email.text).toContain("150.00 USDC");
      await page.close();
    },
  );

  test("gasless on an invoice priced in EUR: the payer signs the quote's USDC, and the invoice is paid in euros", async () => {
    await setLocalFeedRound(chain.url, PRICE_FEEDS.EUR.address, {
      answer: parseFeedAnswer("1.10", 8),
    });
    try {
      const invoice = await createEurInvoice(stack);
      const { page, wallet } = await walletPage("desktop", { account: gaslessPayer.address });
      await page.goto(invoice.invoice_url);
      await payButton(page).waitFor();
      expect(await page.textContent("#pay-amount")).toBe("110.00");
      const signing = wallet.pause("eth_signTypedData_v4");
      await payButton(page).click();
      await signing.reached;
      // What it signs is the quote: 100.00 EUR at 1.10 USDC per EUR.
      expect(await statusText(page)).toBe(
        "Sign the payment of 110.00 USDC in Test Wallet. It costs you no gas.",
      );
      signing.release();
      await page.waitForSelector("#payment[data-state=paid]", { timeout: COUNTED_MS });
      const detail = (await (
        await stack.request(`/api/invoices/${invoice.invoice_id}`)
      ).json()) as Json;
      expect(detail).toMatchObject({
        currency: "EUR",
        paid_amount: "100.00",
        paid_amount_usdc: "110.00",
      });
      await page.close();
    } finally {
      await resetLocalFeeds(chain.url);
    }
  });

  test("plain transfer inside the w.js iframe: the payer's own transaction pays the link; the host page receives the payment event", async () => {
    const link = await createLink({ amount: "3.00", description: "Widget order" });
    const site = await startHostSite(`<!doctype html><html><body><h1>Merchant shop</h1>
      <script>window.payments = []; document.addEventListener("remit:payment", function (e) { window.payments.push(e.detail); });</script>
      ${link.js_widget_snippet}</body></html>`);
    try {
      for (const size of SIZES) {
        const { page, wallet } = await walletPage(size, { account: plainPayer.address });
        await page.goto(site.url);
        await page.locator("button[data-remit-button]").click();
        const frame = page.frameLocator("iframe[title='Pay with USDC']");
        await frame.locator("[data-wallet-pay]").waitFor({ timeout: EVENT_MS });
        await frame.locator("[data-wallet-plain] input").check();
        await screenshot(page, `wallet-widget-${size}-1-ready`);
        if (size === "phone") {
          // The phone only looks: the desktop pays.
          await page.close();
          continue;
        }
        const releaseStatus = await holdStatusPolls(page);
        const sending = wallet.pause("eth_sendTransaction");
        await frame.locator("[data-wallet-pay]").click();
        await sending.reached;
        expect(await frame.locator("[data-wallet-status]").textContent()).toBe(
          "Confirm the transfer of 3.00 USDC in Test Wallet…",
        );
        await screenshot(page, `wallet-widget-${size}-2-confirming`);
        sending.release();
        await frame
          .locator("[data-wallet-status][data-step=submitted]")
          .waitFor({ timeout: EVENT_MS });
        const txHash = await frame.locator("[data-tx]").getAttribute("title");
        await screenshot(page, `wallet-widget-${size}-3-submitted`);
        releaseStatus();

        await page.waitForFunction(
          () => (window as unknown as { payments: unknown[] }).payments.length > 0,
          undefined,
          { timeout: COUNTED_MS },
        );
        const [detail] = await page.evaluate(
          () => (window as unknown as { payments: Json[] }).payments,
        );
        expect(detail).toMatchObject({
          type: "remit:payment",
          slug: link.slug,
          status: "confirmed",
          amount_usdc: "3.00",
          tx_hash: txHash,
        });
        await screenshot(page, `wallet-widget-${size}-4-confirmed`);
        const receipt = await chain.client.getTransactionReceipt({ hash: txHash as Hash });
        expect(receipt.from).toBe(plainPayer.address.toLowerCase());
        expect(wallet.calls).toContain("eth_sendTransaction");
        expect(wallet.calls).not.toContain("eth_signTypedData_v4");
        expect(await storedAuthorizations(link.deposit_address)).toEqual([]);
        await page.close();
      }
    } finally {
      await site.stop();
    }
  });

  /** A refusal: its message on the page, and nothing sent (no USDC moved, nothing relayed). */
  const refusals: [string, WalletScenario, RegExp, { clockBehindMs?: number }?][] = [
    [
      "refused-switch",
      { account: gaslessPayer.address, chainId: 10, refuseSwitch: true },
      /^You declined switching to Base\. This payment is USDC on Base only: switch Test Wallet to Base and try again\. Nothing was sent\.$/,
    ],
    [
      "rejected-signature",
      { account: gaslessPayer.address, rejectSignature: true },
      /^You declined the signature in Test Wallet\. Nothing was sent\.$/,
    ],
    [
      "short-balance",
      { account: poorPayer.address },
      /^Not enough USDC on Base: this wallet holds 1\.00 USDC and the payment is 12\.50 USDC\. Nothing was sent\.$/,
    ],
    [
      // The payer's clock is 20 minutes slow: the ten minutes the page signs for are over.
      "expired",
      { account: gaslessPayer.address },
      /^The signed authorization expired before it reached us\. Pay again to sign a new one\. Nothing was sent\.$/,
      { clockBehindMs: 20 * 60_000 },
    ],
  ];

  test.each(SIZES)(
    "at %s width: another chain is asked to switch; a refused switch, a rejected signature, a short balance and an expired authorization each say so and send nothing",
    async (size) => {
      for (const [name, scenario, message, options] of refusals) {
        const link = await createLink();
        const { page, wallet } = await walletPage(size, scenario);
        if (options?.clockBehindMs)
          await page.clock.setFixedTime(new Date(Date.now() - options.clockBehindMs));
        const payerNonce = await chain.client.getTransactionCount({ address: scenario.account });
        await page.goto(link.payment_link);
        await payButton(page).click();
        await page.waitForSelector("[data-wallet-status][data-step=refused]", {
          timeout: EVENT_MS,
        });
        expect(await statusText(page), name).toMatch(message);
        await screenshot(page, `wallet-refused-${name}-${size}`);
        // The button is offered again, and nothing left the payer or reached the chain.
        expect(await payButton(page).isEnabled()).toBe(true);
        expect(wallet.calls).not.toContain("eth_sendTransaction");
        if (scenario.chainId) expect(wallet.calls).toContain("wallet_switchEthereumChain");
        // Refused before anything was signed; the others signed, and nothing was relayed.
        if (name === "refused-switch" || name === "short-balance")
          expect(wallet.calls).not.toContain("eth_signTypedData_v4");
        expect(await chain.usdcBalance(link.deposit_address)).toBe(0n);
        expect(await chain.client.getTransactionCount({ address: scenario.account })).toBe(
          payerNonce,
        );
        expect(await storedAuthorizations(link.deposit_address)).toEqual([]);
        await page.close();
      }
    },
  );

  test("without a wallet the page is what it was; on a phone the ethereum: link is a button; without script, the QR code and copy fields", async () => {
    const link = await createLink();
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: VIEWPORTS[size] });
      await page.goto(link.payment_link);
      const deeplink = page.locator("a.deeplink");
      expect(await deeplink.getAttribute("href")).toMatch(
        new RegExp(
          `^ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer\\?address=${link.deposit_address}&uint256=12500000$`,
        ),
      );
      expect(await deeplink.isVisible(), size).toBe(size === "phone");
      expect(await page.isVisible("#wallet")).toBe(false);
      await screenshot(page, `wallet-none-${size}`);
      await page.close();
    }
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: VIEWPORTS.phone,
    });
    const page = await context.newPage();
    await page.goto(link.payment_link);
    expect(await page.isVisible(".qr svg")).toBe(true);
    expect(await page.textContent("#pay-address")).toBe(link.deposit_address);
    expect(await page.isVisible("#wallet")).toBe(false);
    expect(await page.isVisible("a.deeplink")).toBe(true);
    await screenshot(page, "wallet-noscript-phone");
    await context.close();
  });

  // Last: it stops the stack's worker.
  test("a queued payment (the relayer's worker is down) is followed until it is submitted and counted", async () => {
    await stack.worker?.stop();
    const link = await createLink();
    const { page } = await walletPage("phone", { account: gaslessPayer.address });
    const releaseStatus = await holdStatusPolls(page);
    await page.goto(link.payment_link);
    await payButton(page).click();
    await expect
      .poll(() => statusText(page), { timeout: EVENT_MS })
      .toBe("Your signed payment is queued; sending it…");
    await screenshot(page, "wallet-gasless-phone-queued");
    replacement = stack.startWorker();
    await page.waitForSelector("[data-wallet-status][data-step=submitted]", { timeout: EVENT_MS });
    releaseStatus();
    await page.waitForSelector("#payment[data-state=confirmed]", { timeout: COUNTED_MS });
    const [row] = await storedAuthorizations(link.deposit_address);
    expect(row?.status).toBe("mined");
    await page.close();
  });
});
