import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds, setLocalFeedRound } from "../../chain/localFeeds.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { parseFeedAnswer } from "../../domain/rates.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { deployOtherToken } from "../helpers/otherToken.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;
const USDC = (amount: number) => BigInt(Math.round(amount * 1_000_000));

describe("payments to an invoice's deposit address", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    // SWEEP off: a sweep mined between reading the head and anvil_reorg would make the reorg
    // test's depth one block short, leaving the payment in place (sweeps: test/sweeps/).
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { WEBHOOK_RETRY_BASE_MS: "50", SWEEP: "off" },
    });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK)
      console.log("WORKER\n", stack.worker?.output(), "\nINDEXER\n", stack.indexer?.output());
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  /** An invoice of 150.00 USDC, sent, with a webhook to the local receiver. */
  const createInvoice = async (overrides: Json = {}) => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 2, unit_price: "75.00" }],
        webhook_url: receiver.url,
        ...overrides,
      }),
    });
    return (await response.json()) as Json & {
      invoice_id: string;
      deposit_address: Address;
      webhook_secret: string;
      invoice_number: string;
    };
  };
  const status = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/status`)).json()) as Json;
  const waitForStatus = (id: string, expected: string) =>
    waitFor(
      `invoice status ${expected}`,
      async () => {
        const body = await status(id);
        return body.status === expected && body;
      },
      { timeoutMs: EVENT_MS, intervalMs: 50 },
    );
  const hooksFor = (id: string) =>
    receiver.received.filter((hook) => (JSON.parse(hook.body) as Json).invoice_id === id);
  /** The status of every webhook delivery of the invoice's events, oldest first. */
  const deliveriesFor = async (id: string) =>
    (
      await stack.db
        .selectFrom("app.webhook_deliveries as d")
        .innerJoin("app.payment_events as e", "e.id", "d.event_id")
        .select("d.status")
        .where("e.invoice_id", "=", id)
        .orderBy("d.created_at")
        .execute()
    ).map((d) => d.status);
  const eventsFor = (id: string) =>
    stack.db
      .selectFrom("app.payment_events")
      .selectAll()
      .where("invoice_id", "=", id)
      .orderBy("created_at")
      .execute();

  test("an exact payment: paid, the merchant is emailed, one webhook signed both ways", async () => {
    const invoice = await createInvoice({ merchant_email: "owner@acme.example" });
    const paid = await chain.payUsdc(devAccount(1), invoice.deposit_address, USDC(150));
    const body = await waitForStatus(invoice.invoice_id, "paid");
    const block = await chain.client.getBlock({ blockNumber: paid.blockNumber });
    expect(body).toEqual({
      status: "paid",
      paid_amount: "150.00",
      tx_hash: paid.transactionHash,
      paid_at: new Date(Number(block.timestamp) * 1000).toISOString(),
    });

    const email = await stack.waitForEmail(
      (e) => e.to.includes("owner@acme.example") && e.subject.includes(invoice.invoice_number),
    );
    expect(email.subject).toContain("is paid in full");
    expect(email.text).toContain("150.00 USDC");
    expect(email.text).toContain(paid.transactionHash);
    // A local chain's transaction is on no public explorer: no dead link to one.
    expect(email.html).toContain(paid.transactionHash);
    expect(email.html).not.toContain("/tx/");
    expect(email.text).not.toContain("block explorer");

    const [hook] = await waitFor(
      "the webhook",
      async () => hooksFor(invoice.invoice_id).length > 0 && hooksFor(invoice.invoice_id),
    );
    const payload = JSON.parse(hook?.body ?? "{}") as Json;
    expect(payload).toMatchObject({
      invoice_id: invoice.invoice_id,
      invoice_number: invoice.invoice_number,
      status: "paid",
      tx_hash: paid.transactionHash,
      paid_amount: "150.00",
      paid_at: body.paid_at,
      type: "invoice.paid",
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const expected = `sha256=${createHmac("sha256", invoice.webhook_secret)
      .update(hook?.body ?? "")
      .digest("hex")}`;
    expect(hook?.headers["x-service-signature"]).toBe(expected);
    expect(
      new Webhook(invoice.webhook_secret).verify(
        hook?.body ?? "",
        hook?.headers as Record<string, string>,
      ),
    ).toEqual(payload);
    expect(hook?.headers["webhook-id"]).toBe(payload.event_id);
    // Once only: counted after the worker has recorded the delivery (no retry is due).
    await waitFor("the delivery recorded", async () => {
      const statuses = await deliveriesFor(invoice.invoice_id);
      return statuses.length > 0 && statuses.every((status) => status === "delivered");
    });
    expect(hooksFor(invoice.invoice_id)).toHaveLength(1);
  });

  test("an underpayment is partial and a second payment completes it; an overpayment is excess", async () => {
    const invoice = await createInvoice();
    await chain.payUsdc(devAccount(2), invoice.deposit_address, USDC(100));
    expect(await waitForStatus(invoice.invoice_id, "partial")).toMatchObject({
      paid_amount: "100.00",
    });
    // The partial webhook is another job than the status: in before the next payment, so the
    // order below is the order of the events, not of two racing deliveries.
    await waitFor("the partial webhook", async () => hooksFor(invoice.invoice_id).length === 1);
    const second = await chain.payUsdc(devAccount(2), invoice.deposit_address, USDC(50));
    expect(await waitForStatus(invoice.invoice_id, "paid")).toMatchObject({
      paid_amount: "150.00",
      tx_hash: second.transactionHash,
    });
    await waitFor("two webhooks", async () => hooksFor(invoice.invoice_id).length === 2);
    expect(hooksFor(invoice.invoice_id).map((h) => (JSON.parse(h.body) as Json).status)).toEqual([
      "partial",
      "paid",
    ]);

    const over = await createInvoice();
    await chain.payUsdc(devAccount(2), over.deposit_address, USDC(150.5));
    expect(await waitForStatus(over.invoice_id, "excess")).toMatchObject({ paid_amount: "150.50" });
  });

  test("a payment by EIP-3009 transferWithAuthorization counts like a transfer", async () => {
    const invoice = await createInvoice();
    const paid = await chain.payWithAuthorization(
      devAccount(3),
      invoice.deposit_address,
      USDC(150),
      devAccount(4),
      `0x${"ab".repeat(32)}`,
    );
    expect(await waitForStatus(invoice.invoice_id, "paid")).toMatchObject({
      tx_hash: paid.transactionHash,
    });
  });

  test("another token sent to the deposit address changes nothing", async () => {
    const invoice = await createInvoice();
    const token = await deployOtherToken(chain);
    await chain.payToken(token, devAccount(0), invoice.deposit_address, USDC(150));
    // A USDC payment to another invoice, made after: once it is seen, the fake token's block was too.
    const witness = await createInvoice();
    await chain.payUsdc(devAccount(5), witness.deposit_address, USDC(150));
    await waitForStatus(witness.invoice_id, "paid");
    expect(await status(invoice.invoice_id)).toEqual({ status: "sent" });
    expect(await eventsFor(invoice.invoice_id)).toEqual([]);
  });

  test("a reorg that removes the payment puts the invoice back; the re-mined payment counts once", async () => {
    const invoice = await createInvoice({ merchant_email: "reorg@acme.example" });
    const signed = await chain.signUsdcTransfer(devAccount(6), invoice.deposit_address, USDC(150));
    const paid = await chain.sendRaw(signed);
    await waitForStatus(invoice.invoice_id, "paid");
    // The paid webhook is delivered by another job than the status: in before the reorg, so
    // the reversal below is the second webhook received, not one racing the first.
    await waitFor("the paid webhook", async () => hooksFor(invoice.invoice_id).length === 1);

    const head = await chain.client.getBlockNumber();
    await chain.reorg(Number(head - paid.blockNumber) + 1);
    await chain.mine(1); // a block on top of the new branch, so the indexer notices the reorg
    await waitForStatus(invoice.invoice_id, "sent");
    await waitFor("the reversal webhook", async () => hooksFor(invoice.invoice_id).length === 2);
    const reversal = JSON.parse(hooksFor(invoice.invoice_id)[1]?.body ?? "{}") as Json;
    expect(reversal).toMatchObject({
      type: "invoice.payment_reversed",
      status: "sent",
      paid_amount: "0.00",
      tx_hash: paid.transactionHash,
    });
    await stack.waitForEmail(
      (e) => e.to.includes("reorg@acme.example") && e.subject.includes("reversed"),
    );

    const remined = await chain.sendRaw(signed);
    expect(remined.transactionHash).toBe(paid.transactionHash);
    expect(await waitForStatus(invoice.invoice_id, "paid")).toMatchObject({
      paid_amount: "150.00",
    });
    const events = await eventsFor(invoice.invoice_id);
    expect(events.map((e) => [e.type, e.paid_amount])).toEqual([
      ["invoice.paid", 150_000_000n],
      ["invoice.payment_reversed", 0n],
      ["invoice.paid", 150_000_000n],
    ]);
  });

  test("priced in EUR: a reorg that removes the payment removes its conversion; re-mined after the rate moved, it counts at its new block's rate", async () => {
    const eurAt = (usd: string) =>
      setLocalFeedRound(chain.url, PRICE_FEEDS.EUR.address, { answer: parseFeedAnswer(usd, 8) });
    await eurAt("1.10");
    try {
      const invoice = await createInvoice({
        currency: "EUR",
        line_items: [{ description: "Work", quantity: 1, unit_price: "100.00" }],
      });
      // 110 USDC, not a quote: at its block's 1.10 it is 100.00 EUR.
      const signed = await chain.signUsdcTransfer(
        devAccount(7),
        invoice.deposit_address,
        USDC(110),
      );
      const paid = await chain.sendRaw(signed);
      expect(await waitForStatus(invoice.invoice_id, "paid")).toMatchObject({
        paid_amount: "100.00",
        currency: "EUR",
      });
      const head = await chain.client.getBlockNumber();
      await chain.reorg(Number(head - paid.blockNumber) + 1);
      await chain.mine(1);
      await waitForStatus(invoice.invoice_id, "sent");
      // The euro moves on the new branch.
      await eurAt("1.25");

      // The same transaction in a new block: 110 USDC at 1.25 is 88.00 EUR.
      await chain.sendRaw(signed);
      expect(await waitForStatus(invoice.invoice_id, "partial")).toMatchObject({
        paid_amount: "88.00",
        paid_amount_usdc: "110.00",
      });
      const events = await eventsFor(invoice.invoice_id);
      expect(events.map((e) => [e.type, e.paid_amount])).toEqual([
        ["invoice.paid", 100_000_000n],
        ["invoice.payment_reversed", 0n],
        ["invoice.partial", 88_000_000n],
      ]);
    } finally {
      await resetLocalFeeds(chain.url);
    }
  });
});
