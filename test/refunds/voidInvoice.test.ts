import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, codeOf } from "../accounts/accounts.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { freshAddress, invoiceApi, type Json, priced, type RefundBody, until } from "./helpers.ts";

const VIEWPORTS = { narrow: { width: 420, height: 900 }, wide: { width: 1280, height: 900 } };

/**
 * Void, then paid anyway: the invoice stays `void`, the payment is recorded as unexpected (an
 * email and a webhook to the merchant) and held, never swept; the payer reclaims it through the
 * claim link: the email in the outbox → the page in Chromium → an address → the transfer on chain.
 */
describe("a void invoice", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let browser: Browser;
  let api: ReturnType<typeof invoiceApi>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    [stack, browser] = await Promise.all([
      startStack({ worker: true, indexer: true }),
      launchBrowser(),
    ]);
    api = invoiceApi(stack);
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await browser?.close();
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  /** Opens `url` at 420 and 1280 px, checks nothing overflows sideways, screenshots it. */
  async function atBothSizes(name: string, url: string, check: (page: Page) => Promise<void>) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const page = await browser.newPage({ viewport });
      try {
        const response = await page.goto(url);
        expect(response?.status()).toBe(200);
        const overflow = await page.evaluate(() =>
          Array.from(document.querySelectorAll("main *"))
            .filter(
              (e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5,
            )
            .map((e) => e.tagName),
        );
        expect(overflow, `${name} at ${size}`).toEqual([]);
        await check(page);
        await screenshot(page, `${name}-${viewport.width}`);
      } finally {
        await page.close();
      }
    }
  }

  test("voided, then paid: stays void, unexpected payment recorded and held, reclaimed through the claim link", async () => {
    const invoice = await api.create({
      ...priced("3.00"),
      wallet_type: "byo",
      wallet_address: freshAddress(),
      webhook_url: receiver.url,
    });
    // Voided while sent: the vendor, who was emailed the invoice, is told.
    const voided = await answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}/void`, { method: "POST" }),
    );
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: "void", stored_status: "void" });
    expect(voided.body.voided_at).toEqual(expect.any(String));
    await stack.waitForEmail(
      (e) =>
        e.to.includes("ap@globex.example") &&
        e.subject.startsWith(`${invoice.invoice_number} from`) &&
        e.subject.includes("is void"),
    );
    // Void once: a second void (and a send) is a 409 in the usual shape.
    const twice = await answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}/void`, { method: "POST" }),
    );
    expect(twice.status).toBe(409);
    expect(codeOf(twice.body)).toBe("invoice_not_voidable");
    expect(await api.status(invoice.invoice_id)).toEqual({ status: "void" });

    // The hosted page says void and offers no way to pay.
    await atBothSizes("void-invoice", `${stack.api.url}/i/${invoice.slug}`, async (page) => {
      const text = await page.locator("main").textContent();
      expect(text).toContain("This invoice is void");
      expect(text).not.toContain(invoice.deposit_address);
      expect(await page.locator("svg, .qr, .paywith, button, a[href^='ethereum:']").count()).toBe(
        0,
      );
    });
    const html = await (await fetch(`${stack.api.url}/i/${invoice.slug}`)).text();
    expect(html.toLowerCase()).not.toContain(invoice.deposit_address.toLowerCase());

    // Paid anyway.
    const payer = devAccount(4);
    await chain.payUsdc(payer, invoice.deposit_address, 3_000_000n);
    const hook = (await until("the invoice.unexpected_payment webhook", async () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as Json)
        .find(
          (b) => b.type === "invoice.unexpected_payment" && b.invoice_id === invoice.invoice_id,
        ),
    )) as Json;
    expect(hook).toMatchObject({ status: "void", paid_amount: "3.00" });
    const merchantEmail = String((await api.get(invoice.invoice_id)).merchant_email);
    await stack.waitForEmail(
      (e) =>
        e.to.includes(merchantEmail) && e.subject.includes("which is void; it is held for refund"),
    );
    expect(await api.status(invoice.invoice_id)).toEqual({ status: "void" });
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select("type")
      .where("invoice_id", "=", invoice.invoice_id)
      .orderBy("created_at")
      .execute();
    // The void's credit note (a sent invoice is cancelled by one), then the payment.
    expect(events.map((e) => e.type)).toEqual([
      "credit_note.created",
      "invoice.unexpected_payment",
    ]);
    // Held: never swept.
    expect((await api.get(invoice.invoice_id)).sweeps).toEqual([]);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(3_000_000n);

    // The merchant refunds it without an address: a claim link, emailed to the vendor and returned.
    const created = await answer(await api.refund(invoice.invoice_id, {}));
    expect(created.status).toBe(201);
    const refund = created.body as RefundBody;
    expect(refund).toMatchObject({ status: "requested", amount: "3.00", to: null });
    expect(refund.claim_url).toMatch(
      new RegExp(`^${stack.api.url}/refund/[1-9A-HJ-NP-Za-km-z]{43}$`),
    );
    const stored = await stack.db
      .selectFrom("app.refunds")
      .select("claim_token_hash")
      .where("id", "=", refund.refund_id)
      .executeTakeFirstOrThrow();
    // Stored only as its hash.
    expect(stored.claim_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(refund.claim_url).not.toContain(stored.claim_token_hash);
    const email = await stack.waitForEmail(
      (e) => e.to.includes("ap@globex.example") && e.subject.includes("tell us where to send it"),
    );
    expect(email.text).toContain(String(refund.claim_url));
    expect(email.text).toMatch(/exchange/);

    // The payer opens the link from the email, names an address and sends the form.
    const claimUrl = /https?:\/\/\S+\/refund\/\S+/.exec(email.text ?? "")?.[0] ?? "";
    expect(claimUrl).toBe(refund.claim_url);
    const refundTo = freshAddress();
    await atBothSizes("refund-claim", claimUrl, async (page) => {
      const text = await page.locator("main").textContent();
      expect(text).toContain("3.00 USDC");
      expect(text).toMatch(/exchange deposit address/);
    });
    const page = await browser.newPage({ viewport: VIEWPORTS.narrow });
    try {
      await page.goto(claimUrl);
      // A bad address first: the form again with the reason, the link still unused.
      await page.fill("#address", "0x1234");
      await page.check("#confirm");
      await page.evaluate(() => document.querySelector("#address")?.removeAttribute("pattern"));
      await Promise.all([page.waitForLoadState("load"), page.click("button[type=submit]")]);
      await page
        .locator("[role=alert]")
        .waitFor({ timeout: EVENT_MS })
        .catch(async (error: unknown) => {
          throw new Error(`${String(error)}\n${(await page.content()).slice(0, 3000)}`);
        });
      expect(await page.locator("[role=alert]").textContent()).toMatch(/not an address/);
      await page.fill("#address", refundTo);
      await page.check("#confirm");
      await page.click("button[type=submit]");
      await page.getByText("Your refund is on its way").waitFor({ timeout: EVENT_MS });
      await screenshot(page, "refund-claimed-420");
    } finally {
      await page.close();
    }
    // Used once: a replay (a GET or another post) is the one 410 page.
    expect((await fetch(claimUrl)).status).toBe(410);

    const done = await api.refundIs(invoice.invoice_id, refund.refund_id, "confirmed");
    expect(done.refunds[0]).toMatchObject({ to: refundTo, claimed_at: expect.any(String) });
    expect(await chain.usdcBalance(refundTo)).toBe(3_000_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    expect(await api.status(invoice.invoice_id)).toEqual({
      status: "void",
      refunded_amount: "3.00",
    });
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select(["action", "actor"])
      .where("target", "in", [invoice.invoice_id, refund.refund_id])
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "invoice.created", actor: "anonymous" },
      { action: "invoice.voided", actor: "anonymous" },
      { action: "refund.requested", actor: "anonymous" },
      { action: "refund.claimed", actor: "claim" },
    ]);
  });

  test("only an unpaid invoice can be voided", async () => {
    const invoice = await api.create({ ...priced("1.00") });
    await chain.payUsdc(devAccount(5), invoice.deposit_address, 400_000n);
    await until("partial", async () => (await api.status(invoice.invoice_id)).status === "partial");
    const refused = await answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}/void`, { method: "POST" }),
    );
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe("invoice_not_voidable");
    expect((refused.body.error as Json).message).toContain("this invoice is partial");
    // A draft can be voided, and no vendor was emailed, so none is told.
    const draft = await api.create({ ...priced("1.00"), send_now: false });
    const ok = await answer(
      await stack.request(`/api/invoices/${draft.invoice_id}/void`, { method: "POST" }),
    );
    expect(ok.status).toBe(200);
    const voidEmails = await stack.db
      .selectFrom("app.emails")
      .select("id")
      .where("invoice_id", "=", draft.invoice_id)
      .where("kind", "=", "invoice_void")
      .execute();
    expect(voidEmails).toEqual([]);
    expect(
      (
        await answer(
          await stack.request(`/api/invoices/${draft.invoice_id}/send`, { method: "POST" }),
        )
      ).status,
    ).toBe(409);
  });
});
