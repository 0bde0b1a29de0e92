import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REDELIVERIES_PER_INVOICE_PER_HOUR } from "../../app/invoices/queueRedelivery.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Delivery = { delivery_id: string; status: string; attempts: number };

/**
 * Redelivery could be asked for as often as anyone liked, each one a job
 * that may hold a webhook slot until its deadline. Now at most one redelivery of an event is
 * queued or in flight at a time (409), and an invoice gets at most 20 an hour (429 with
 * Retry-After); the limits live in the database, so every API replica enforces the same ones.
 */
describe("attack: an event redelivered in a flood", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    // The first delivery is answered, the first redelivery hangs until released.
    receiver = await startWebhookReceiver([200, "hang"]);
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  test("one redelivery of an event at a time, and at most 20 per invoice an hour", async () => {
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        webhook_url: receiver.url,
        line_items: [{ description: "Work", quantity: 1, unit_price: "1.00" }],
      }),
    });
    const invoice = (await created.json()) as {
      invoice_id: string;
      deposit_address: `0x${string}`;
    };
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 1_000_000n);
    await waitFor("the first delivery", async () => receiver.received.length === 1);
    const history = async () =>
      (
        (await (await stack.request(`/api/invoices/${invoice.invoice_id}/webhooks`)).json()) as {
          events: { event_id: string; deliveries: Delivery[] }[];
        }
      ).events[0];
    const eventId = (await history())?.event_id;
    const redeliver = () =>
      stack.request(`/api/invoices/${invoice.invoice_id}/webhooks/${eventId}/redeliver`, {
        method: "POST",
      });

    // The first redelivery is taken (and its receiver hangs); more are refused while it is in flight.
    expect((await redeliver()).status).toBe(202);
    await waitFor("the redelivery in flight", async () => receiver.received.length === 2);
    for (let i = 0; i < 5; i++) {
      const refused = await redeliver();
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
        "redelivery_queued",
      );
    }
    receiver.release();

    // Once each has been attempted, the next is taken: up to the invoice's hourly budget.
    for (let i = 1; i < REDELIVERIES_PER_INVOICE_PER_HOUR; i++) {
      await waitFor("the last redelivery attempted", async () =>
        (await history())?.deliveries.every((d) => d.attempts > 0),
      );
      expect((await redeliver()).status).toBe(202);
    }
    await waitFor("the last redelivery attempted", async () =>
      (await history())?.deliveries.every((d) => d.attempts > 0),
    );
    const limited = await redeliver();
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3_000);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    // The first delivery plus the budget, and no more.
    expect((await history())?.deliveries).toHaveLength(1 + REDELIVERIES_PER_INVOICE_PER_HOUR);
  });
});
