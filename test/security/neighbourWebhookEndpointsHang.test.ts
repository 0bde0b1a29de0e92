import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Created = { invoice_id: string; deposit_address: Address };

/** The worker's whole-delivery deadline: what one hanging receiver holds a slot for. */
const DEADLINE_MS = 15_000;
const ENDPOINTS = 16;

/**
 * The attack: one merchant registers 16 webhook endpoints on a host that accepts connections and
 * never answers, then has 4 small payments made: 64 deliveries, each holding one of the webhook
 * queue's slots until the deadline. Another merchant's webhook went from 0.01 s to 65 s. Now a
 * merchant (and an endpoint) holds at most its share of the slots
 * (WEBHOOK_SLOTS_PER_MERCHANT / _PER_ENDPOINT); its other attempts wait outside the queue, and
 * another merchant's `invoice.paid` is delivered well before any hanging delivery times out.
 */
describe("a neighbour's 16 webhook endpoints hang", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let neighbour: Merchant;
  let hanging: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    [hanging, receiver] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
    hanging.answerWith("hang");
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS) },
    });
    neighbour = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    hanging?.release();
    await stack?.stop();
    await Promise.all([hanging?.stop(), receiver?.stop()]);
    await chain.revert();
  });

  const invoice = async (json: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers,
        json: invoiceRequest({
          line_items: [{ description: "Work", quantity: 1, unit_price: "1.00" }],
          send_now: false,
          ...json,
        }),
      }),
    );
    expect(created.status).toBe(201);
    return created.body as Created;
  };

  test("another merchant's invoice.paid arrives long before any hanging delivery times out", async () => {
    for (let i = 0; i < ENDPOINTS; i++) {
      const created = await stack.request("/api/webhook-endpoints", {
        method: "POST",
        headers: bearer(neighbour.key),
        json: { url: `${hanging.url}/${i}` },
      });
      expect(created.status).toBe(201);
    }
    for (let i = 0; i < 4; i++) {
      const paid = await invoice({ merchant_email: neighbour.email }, bearer(neighbour.key));
      await chain.payUsdc(devAccount(3), paid.deposit_address, 1_000_000n);
    }
    await waitFor("the neighbour's deliveries hanging", async () => hanging.received.length >= 1, {
      timeoutMs: EVENT_MS,
      intervalMs: 20,
    });

    for (let i = 0; i < 3; i++) {
      const quiet = await invoice({ webhook_url: receiver.url });
      await chain.payUsdc(devAccount(2), quiet.deposit_address, 1_000_000n);
      const paidAt = Date.now();
      const hook = await waitFor(
        "the other merchant's webhook",
        async () => receiver.received.find((h) => h.body.includes(quiet.invoice_id)),
        { timeoutMs: 2 * DEADLINE_MS, intervalMs: 20 },
      );
      // Queued behind the hanging deliveries it would take a deadline at least.
      expect(hook.receivedAt - paidAt).toBeLessThan(DEADLINE_MS / 2);
    }
    // The neighbour's deliveries are still hanging: the attack was on while we measured.
    expect(hanging.received.length).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
