import { setTimeout as delay } from "node:timers/promises";
import { sql } from "kysely";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { HealthReport } from "../../api/health.ts";
import { summarize } from "../../bench/stats.ts";
import { type Anvil, startAnvil } from "../../chain/anvil.ts";
import { freePort } from "../../internal/freePort.ts";
import { waitFor } from "../../internal/process.ts";
import { type Chain, createChain, devAccount } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Created = { invoice_id: string; deposit_address: Address };

/** The whole-delivery deadline of this test's worker (the default is 15 s). */
const DEADLINE_MS = 8_000;
const TRICKLERS = 10;
const MEASURED_PAYMENTS = 20;

/**
 * A receiver that answers 200 and then trickles its body a byte every 2 s
 * used to hold a worker slot until it closed, and five of them stopped payment detection for
 * everybody. Here ten do, each redelivered as fast as the limits allow, on a chain with 1 s
 * blocks, while invoices are created and paid: every payment still reaches `paid` within its
 * usual time, and every trickling delivery is cut at the deadline and recorded as a failure.
 */
describe("attack: webhook receivers that trickle their answer try to hold the worker", () => {
  let anvil: Anvil;
  let chain: Chain;
  let stack: TestStack;
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];

  beforeAll(async () => {
    anvil = await startAnvil({
      port: await freePort(),
      blockTime: 1,
      loadState: inject("usdcGenesisFile"),
    });
    chain = createChain(anvil.url);
    stack = await startStack({
      worker: true,
      indexer: true,
      rpcUrl: anvil.url,
      env: { WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS), RATE_LIMIT_STATUS_PER_MIN: "0" },
    });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await anvil?.stop();
  });

  const create = async (webhookUrl?: string): Promise<Created> => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "1.00" }],
        ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Created;
  };
  const status = async (id: string) =>
    ((await (await stack.request(`/api/invoices/${id}/status`)).json()) as { status: string })
      .status;
  const eventOf = async (id: string) =>
    (
      (await (await stack.request(`/api/invoices/${id}/webhooks`)).json()) as {
        events: { event_id: string }[];
      }
    ).events[0]?.event_id;

  test("ten trickling receivers, redelivered without pause: payments are detected in time, deliveries cut at the deadline", async () => {
    for (let i = 0; i < TRICKLERS; i++) {
      const receiver = await startWebhookReceiver();
      receiver.answerWith("trickle");
      receivers.push(receiver);
    }
    const attacked = await Promise.all(receivers.map((receiver) => create(receiver.url)));
    // Paid from five accounts at once: each gets its event, and its first delivery trickles.
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (payer) => {
        for (const invoice of attacked.filter((_, i) => i % 5 === payer))
          await chain.payUsdc(devAccount(3 + payer), invoice.deposit_address, 1_000_000n);
      }),
    );
    const events = await Promise.all(
      attacked.map((invoice) =>
        waitFor("the attacked invoice's event", () => eventOf(invoice.invoice_id), {
          timeoutMs: EVENT_MS,
          intervalMs: 100,
        }),
      ),
    );

    // Each event redelivered as fast as the limits allow, until the payments below are done.
    const answers = { accepted: 0, queued: 0, limited: 0, other: 0 };
    let attacking = true;
    const attack = Promise.all(
      attacked.map(async (invoice, i) => {
        while (attacking) {
          const response = await stack.request(
            `/api/invoices/${invoice.invoice_id}/webhooks/${events[i]}/redeliver`,
            { method: "POST" },
          );
          await response.arrayBuffer();
          if (response.status === 202) answers.accepted++;
          else if (response.status === 409) answers.queued++;
          else if (response.status === 429) answers.limited++;
          else answers.other++;
          await delay(100);
        }
      }),
    );

    // Meanwhile invoices are created and paid, one after another, each timed from its receipt.
    const latencies: number[] = [];
    try {
      for (let i = 0; i < MEASURED_PAYMENTS; i++) {
        const invoice = await create();
        await chain.payUsdc(devAccount(2), invoice.deposit_address, 1_000_000n);
        const receipt = performance.now();
        await waitFor("paid", async () => (await status(invoice.invoice_id)) === "paid", {
          timeoutMs: EVENT_MS,
          intervalMs: 20,
        });
        latencies.push(performance.now() - receipt);
      }
    } finally {
      attacking = false;
      await attack;
    }

    const figures = summarize(latencies);
    // A held worker makes a payment wait for a trickler's deadline; one not held detects it in
    // about a second on a quiet machine. Half the deadline tells the two apart on a machine
    // three times slower and loaded too (the figure itself is measured in bench/, the
    // webhookFairness row).
    expect(figures.p95, `receipt → paid: ${JSON.stringify(figures)}`).toBeLessThan(DEADLINE_MS / 2);
    // The attack ran: every event redelivered, and the limits refused the rest.
    expect(answers.accepted).toBeGreaterThanOrEqual(TRICKLERS);
    expect(answers.queued).toBeGreaterThan(0);
    expect(answers.other).toBe(0);

    // Every trickling delivery that ended was cut at the deadline and recorded as a failure,
    // and its delivery stays pending for the retry schedule.
    const { rows: attempts } = await sql<{
      status_code: number | null;
      latency_ms: number;
      error: string | null;
    }>`select a.status_code, a.latency_ms, a.error
         from app.webhook_attempts a
         join app.webhook_deliveries d on d.id = a.delivery_id
         join app.payment_events e on e.id = d.event_id
        where e.invoice_id = any(${attacked.map((invoice) => invoice.invoice_id)}::uuid[])`.execute(
      stack.db,
    );
    expect(attempts.length).toBeGreaterThanOrEqual(2 * TRICKLERS);
    for (const attempt of attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toMatch(new RegExp(`no complete response within ${DEADLINE_MS} ms`));
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(attempt.latency_ms).toBeLessThan(DEADLINE_MS + 2_000);
    }
    const { rows: delivered } = await sql<{ n: number }>`
      select count(*)::int as n from app.webhook_deliveries d
        join app.payment_events e on e.id = d.event_id
       where e.invoice_id = any(${attacked.map((invoice) => invoice.invoice_id)}::uuid[])
         and d.status = 'delivered'`.execute(stack.db);
    expect(delivered[0]?.n).toBe(0);

    // And the worker is reported healthy: its payment queue never waited.
    const health = (await (await stack.request("/health")).json()) as HealthReport;
    expect(health.components.worker).toMatchObject({ ok: true, stuck_jobs: 0 });
  }, 240_000);
});
