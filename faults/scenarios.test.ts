import pg from "pg";
import { describe, expect, test } from "vitest";
import { usdcToBaseUnits } from "../domain/money.ts";
import { newSlug } from "../domain/tokens.ts";
import { waitFor } from "../internal/process.ts";
import type { ReceivedWebhook } from "../test/helpers/webhookReceiver.ts";
import type { Figures } from "./audit.ts";
import { killAndAwaitRestart, runScenario } from "./scenario.ts";

/** Nothing lost, nothing duplicated, nothing stuck. */
function expectIntact(figures: Figures): void {
  expect(figures.problems).toEqual([]);
  expect(figures.duplicates).toBe(0);
  expect(figures.losses).toBe(0);
  expect(figures.payments_reflected).toBe(figures.payments_made);
  expect(figures.invoices_created).toBeGreaterThan(0);
}

describe("fault suite: kill -9 while invoices are created and paid", () => {
  for (const component of ["api", "worker", "indexer", "postgres"] as const) {
    test(`kill -9 of the ${component}`, async () => {
      const figures = await runScenario(`kill -9 ${component}`, (context) =>
        killAndAwaitRestart(context, component),
      );
      expectIntact(figures);
    });
  }
});

describe("fault suite: outages", () => {
  test("RPC outage of 30 s: indexing resumes and payments made meanwhile are detected", async () => {
    let paidDuringOutage = 0;
    const figures = await runScenario("RPC down 30 s", async ({ rpc, paymentsMade }) => {
      await rpc.cut();
      const before = paymentsMade();
      const started = Date.now();
      // The client and payers carry on: the chain is up, only the service's RPC is not.
      await waitFor("30 s of outage", async () => Date.now() - started >= 30_000, {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      paidDuringOutage = paymentsMade() - before;
      await rpc.restore();
    });
    expect(paidDuringOutage).toBeGreaterThan(0);
    expectIntact(figures);
  });

  test("Postgres out of connections: the API answers 503 with Retry-After at once, then recovers", async () => {
    const probes: { status: number; retryAfter: string | null; ms: number }[] = [];
    const figures = await runScenario("database connections exhausted", async ({ service }) => {
      const hog = await hogConnections(service.databaseUrl);
      try {
        const until = Date.now() + 8_000;
        while (Date.now() < until) {
          const started = performance.now();
          const response = await fetch(`${service.apiUrl}/api/payments/status/${newSlug()}`, {
            signal: AbortSignal.timeout(30_000),
          });
          await response.arrayBuffer();
          probes.push({
            status: response.status,
            retryAfter: response.headers.get("retry-after"),
            ms: performance.now() - started,
          });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await hog.release();
      }
    });
    expectIntact(figures);
    const unavailable = probes.filter((probe) => probe.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.every((probe) => probe.retryAfter === "2")).toBe(true);
    // Either the answer (404: the slug is unknown) or 503; never a 500, never a hang.
    expect(probes.filter((probe) => probe.status !== 503 && probe.status !== 404)).toEqual([]);
    expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThan(10_000);
  });

  test("webhook receiver down through many retries: every event arrives after it recovers, in an order receivers can rebuild", async () => {
    let rebuiltOrder: ReturnType<typeof rebuildOrder> = { invoices: 0, outOfOrder: [] };
    const figures = await runScenario(
      "webhook receiver down",
      async ({ receiver }) => receiver.answerWith(503),
      {
        // Long real delays: only advancing the schedule gets the retries to run in time.
        env: { WEBHOOK_RETRY_BASE_MS: "3600000" },
        beforeAudit: async ({ service, receiver }) => {
          const db = new pg.Client({ connectionString: service.databaseUrl });
          await db.connect();
          try {
            const advance = () =>
              db.query(
                `update graphile_worker._private_jobs j set run_at = now()
                   from graphile_worker._private_tasks t
                  where t.id = j.task_id and t.identifier = 'deliver_webhook' and j.locked_at is null`,
              );
            // Three more failed rounds while it stays down (hours of retries, advanced)…
            for (let round = 2; round <= 4; round++) {
              await advance();
              await waitFor(
                `every delivery to have failed ${round} times`,
                async () => {
                  const { rows } = await db.query<{ n: number }>(
                    "select count(*)::int as n from app.webhook_deliveries where status = 'pending' and attempts < $1",
                    [round],
                  );
                  if ((rows[0]?.n ?? 1) > 0) await advance();
                  return rows[0]?.n === 0;
                },
                { timeoutMs: 60_000, intervalMs: 200 },
              );
            }
            // …then it recovers, and the next round (advanced) delivers everything.
            receiver.answerWith(200);
            await waitFor(
              "every delivery to succeed",
              async () => {
                await advance();
                const { rows } = await db.query<{ n: number }>(
                  "select count(*)::int as n from app.webhook_deliveries where status <> 'delivered'",
                );
                return rows[0]?.n === 0;
              },
              { timeoutMs: 60_000, intervalMs: 200 },
            );
            rebuiltOrder = rebuildOrder(receiver.received);
          } finally {
            await db.end();
          }
        },
      },
    );
    expectIntact(figures);
    expect(figures.webhooks_delivered).toBeGreaterThan(0);
    // Every delivery after recovery arrived out of its original order (all at once), yet each
    // invoice's history is rebuilt from event ids and timestamps: partial before paid.
    expect(rebuiltOrder.invoices).toBeGreaterThan(0);
    expect(rebuiltOrder.outOfOrder).toEqual([]);
  });
});

type EventBody = {
  event_id: string;
  invoice_id: string;
  status: string;
  created_at: string;
  paid_amount: string;
};

/**
 * What a receiver does with deliveries that arrive late and in any order: keep the first of
 * each event id, sort each invoice's events by `created_at`, and check the history makes
 * sense (amounts never go down, `paid` comes last).
 */
function rebuildOrder(received: ReceivedWebhook[]) {
  const events = new Map<string, EventBody>();
  for (const delivery of received) {
    if (delivery.reply !== 200) continue;
    const body = JSON.parse(delivery.body) as EventBody;
    if (!events.has(body.event_id)) events.set(body.event_id, body);
  }
  const byInvoice = new Map<string, EventBody[]>();
  for (const event of events.values())
    byInvoice.set(event.invoice_id, [...(byInvoice.get(event.invoice_id) ?? []), event]);
  const outOfOrder: string[] = [];
  for (const [invoice, history] of byInvoice) {
    history.sort((a, b) => a.created_at.localeCompare(b.created_at));
    const amounts = history.map((event) => usdcToBaseUnits(event.paid_amount));
    const rising = amounts.every((amount, i) => i === 0 || amount >= (amounts[i - 1] ?? 0n));
    if (!rising || history.at(-1)?.status !== "paid")
      outOfOrder.push(
        `${invoice}: ${history.map((e) => `${e.status}@${e.created_at}`).join(", ")}`,
      );
  }
  return { invoices: byInvoice.size, outOfOrder };
}

/**
 * Takes every connection slot of the service's Postgres and keeps it that way until `release`:
 * every 200 ms the service's own connections are terminated and the freed slots taken, so each
 * component keeps asking for connections and is refused ("too many clients").
 */
async function hogConnections(databaseUrl: string) {
  const held: pg.Client[] = [];
  let stopped = false;
  const grab = async () => {
    for (;;) {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on("error", () => {});
      try {
        await client.connect();
        held.push(client);
      } catch {
        return;
      }
    }
  };
  const terminateOthers = async () => {
    const ours = await Promise.all(
      held.map((client) => (client as unknown as { processID: number }).processID),
    );
    await held[0]
      ?.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where backend_type = 'client backend' and pid <> all($1::int[])",
        [ours],
      )
      .catch(() => {});
  };
  await grab();
  const hogging = (async () => {
    while (!stopped) {
      await terminateOthers();
      await grab();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    release: async () => {
      stopped = true;
      await hogging;
      await Promise.all(held.map((client) => client.end().catch(() => {})));
    },
  };
}
