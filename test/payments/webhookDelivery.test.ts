import { sql } from "kysely";
import type { Address } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { findDeadLockers } from "../../db/queries/jobs.ts";
import { jobKey } from "../../domain/jobs.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startIndexer } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { type Reply, startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;
type Events = {
  events: {
    event_id: string;
    type: string;
    created_at: string;
    deliveries: {
      delivery_id: string;
      status: string;
      attempts: number;
      attempt_log: { status_code: number | null; error: string | null }[];
    }[];
  }[];
};

describe("webhook delivery", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_TIMEOUT_MS: "15000" },
    });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  const receiver = async (script: Reply[] = []) => {
    const started = await startWebhookReceiver(script);
    receivers.push(started);
    return started;
  };
  const payInvoice = async (webhookUrl: string) => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "10.00" }],
        webhook_url: webhookUrl,
      }),
    });
    const invoice = (await response.json()) as { invoice_id: string; deposit_address: Address };
    await chain.payUsdc(devAccount(7), invoice.deposit_address, 10_000_000n);
    return invoice;
  };
  const webhooks = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/webhooks`)).json()) as Events;
  /** Jobs still queued or running for a delivery: its first attempt's, and any retry's. */
  const jobsOf = async (deliveryId: string) => {
    const key = jobKey.webhook(deliveryId);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from graphile_worker.jobs
      where key = ${key} or key like ${`${key}:%`}`.execute(stack.db);
    return rows[0]?.n ?? 0;
  };

  test("a receiver that fails 3 times then succeeds gets the event, with 4 attempts recorded", async () => {
    const hooks = await receiver([500, 503, 502]);
    const invoice = await payInvoice(hooks.url);
    await waitFor("4 requests", async () => hooks.received.length >= 4, { timeoutMs: EVENT_MS });
    const delivery = await waitFor("the delivery to complete", async () => {
      const d = (await webhooks(invoice.invoice_id)).events[0]?.deliveries[0];
      return d?.status === "delivered" && d;
    });
    expect(delivery.attempts).toBe(4);
    expect(delivery.attempt_log.map((a) => a.status_code)).toEqual([500, 503, 502, 200]);
    // The same event, byte for byte, every time.
    expect(new Set(hooks.received.map((h) => h.body)).size).toBe(1);
    expect(new Set(hooks.received.map((h) => h.headers["webhook-id"])).size).toBe(1);
    expect(hooks.received).toHaveLength(4);
  });

  test("a receiver answering 410 Gone is not retried", async () => {
    const hooks = await receiver([410]);
    const invoice = await payInvoice(hooks.url);
    const delivery = await waitFor("the delivery to stop", async () => {
      const d = (await webhooks(invoice.invoice_id)).events[0]?.deliveries[0];
      return d?.status === "gone" && d;
    });
    expect(delivery.attempts).toBe(1);
    // A retry would be a job (the attempt's own, or graphile-worker's after a throw): once the
    // delivery has none left, nothing more can arrive, and one request is all there was.
    await waitFor(
      "no job left for the delivery",
      async () => (await jobsOf(delivery.delivery_id)) === 0,
    );
    expect(hooks.received).toHaveLength(1);
  });

  test("a redelivery sends the same event again", async () => {
    const hooks = await receiver();
    const invoice = await payInvoice(hooks.url);
    await waitFor("the first delivery", async () => hooks.received.length === 1);
    const [event] = (await webhooks(invoice.invoice_id)).events;
    const eventId = event?.event_id;
    // One event, one moment: the delivery log and the delivered payload say the same time.
    const delivered = JSON.parse(hooks.received[0]?.body ?? "{}") as { created_at: string };
    expect(event?.created_at).toBe(delivered.created_at);
    const response = await stack.request(
      `/api/invoices/${invoice.invoice_id}/webhooks/${eventId}/redeliver`,
      { method: "POST" },
    );
    expect(response.status).toBe(202);
    await waitFor("the redelivery", async () => hooks.received.length === 2);
    expect(hooks.received[1]?.body).toBe(hooks.received[0]?.body);
    expect(hooks.received[1]?.headers["webhook-id"]).toBe(eventId);
    const missing = await stack.request(
      `/api/invoices/${invoice.invoice_id}/webhooks/00000000-0000-4000-8000-000000000000/redeliver`,
      { method: "POST" },
    );
    expect(missing.status).toBe(404);
  });

  test("a job held by a live worker is never taken for a crashed one's, however long it runs", async () => {
    const hooks = await receiver(["hang"]);
    await payInvoice(hooks.url);
    await waitFor("the delivery to be in flight", async () => hooks.received.length === 1, {
      timeoutMs: EVENT_MS,
    });
    // With no grace at all, a lock that no live worker's heartbeat lists counts as dead: the
    // delivery's lock must be listed, or the periodic check would release it mid-delivery.
    await waitFor("the heartbeat to list the lock", async () => {
      const { rows: held } = await sql`
        select locked_by from graphile_worker._private_jobs where locked_by is not null`.execute(
        stack.db,
      );
      return held.length > 0 && (await findDeadLockers(stack.db, [], 0)).length === 0;
    });
    hooks.release();
  });

  test("kill -9 of the worker during a delivery: the event is still delivered, with the same id", async () => {
    const hooks = await receiver(["hang"]);
    const invoice = await payInvoice(hooks.url);
    await waitFor("the delivery to be in flight", async () => hooks.received.length === 1, {
      timeoutMs: EVENT_MS,
    });
    stack.worker?.process.kill("SIGKILL");
    await new Promise((resolve) => stack.worker?.process.once("exit", resolve));
    hooks.release(); // the answer goes to a dead worker

    stack.worker = stack.startWorker({ WEBHOOK_RETRY_BASE_MS: "100" });
    // The new worker's start-up, then its release of the dead worker's lock, which may wait for
    // its periodic crash check (every 15 s, worker/startup.ts).
    await waitFor("the redelivery after the crash", async () => hooks.received.length >= 2, {
      timeoutMs: EVENT_MS,
    });
    expect(hooks.received[1]?.headers["webhook-id"]).toBe(hooks.received[0]?.headers["webhook-id"]);
    const delivery = await waitFor("delivered", async () => {
      const d = (await webhooks(invoice.invoice_id)).events[0]?.deliveries[0];
      return d?.status === "delivered" && d;
    });
    expect(delivery.status).toBe("delivered");
  });

  test("an indexer restart (it replays its last blocks) sends nothing twice", async () => {
    const hooks = await receiver();
    const invoice = await payInvoice(hooks.url);
    await waitFor("the webhook", async () => hooks.received.length === 1);

    await stack.indexer?.stop();
    stack.indexer = await startIndexer({
      databaseUrl: stack.database.url,
      rpcUrl: chain.url,
      mnemonic: stack.mnemonic,
    });
    // A later payment, to another invoice, proves the restarted indexer is processing blocks
    // (and has replayed the first one's).
    const witness = await receiver();
    await payInvoice(witness.url);
    await waitFor("the witness webhook", async () => witness.received.length === 1, {
      timeoutMs: EVENT_MS,
    });
    // Let anything the replay might have queued run.
    await waitFor(
      "no job left",
      async () => {
        const { rows } = await sql<{
          n: string;
        }>`select count(*)::text as n from graphile_worker._private_jobs`.execute(stack.db);
        return rows[0]?.n === "0";
      },
      { timeoutMs: EVENT_MS },
    );

    expect(hooks.received).toHaveLength(1);
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select("type")
      .where("invoice_id", "=", invoice.invoice_id)
      .execute();
    expect(events).toEqual([{ type: "invoice.paid" }]);
    const emails = await stack.db
      .selectFrom("app.emails")
      .select("kind")
      .where("invoice_id", "=", invoice.invoice_id)
      .where("kind", "=", "payment_event")
      .execute();
    expect(emails).toHaveLength(1);
  });

  test("in production a webhook_url must be https and must not name a private host", async () => {
    const production = await startStack({ env: { ALLOW_PRIVATE_WEBHOOKS: "false" } });
    try {
      for (const [url, message] of [
        ["http://hooks.example.com/x", "must use https"],
        ["https://127.0.0.1/x", "loopback"],
        ["https://169.254.169.254/latest", "loopback"],
        ["https://localhost/x", "loopback"],
      ]) {
        const response = await production.request("/api/invoices", {
          method: "POST",
          json: invoiceRequest({ webhook_url: url }),
        });
        expect(response.status).toBe(400);
        const body = (await response.json()) as { error: { fields: Json[] } };
        expect(body.error.fields).toEqual([
          {
            path: "webhook_url",
            code: "webhook_url_not_allowed",
            message: expect.stringContaining(message as string),
          },
        ]);
      }
    } finally {
      await production.stop();
    }
  });
});
