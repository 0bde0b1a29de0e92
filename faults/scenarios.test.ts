import pg from "pg";
import { describe, expect, test } from "vitest";
import { waitFor } from "../platform/process.ts";
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
      const figures = await runScenario(`kill -9 ${component}`, ({ service }) =>
        killAndAwaitRestart(service, component),
      );
      expectIntact(figures);
    });
  }
});

describe("fault suite: outages", () => {
  test("RPC outage of 30 s: indexing resumes and payments made meanwhile are detected", async () => {
    let paidDuringOutage = 0;
    const figures = await runScenario("RPC down 30 s", async ({ rpc, created }) => {
      await rpc.cut();
      const started = Date.now();
      // The client and payers carry on: the chain is up, only the service's RPC is not.
      await created(10);
      await waitFor("30 s of outage", async () => Date.now() - started >= 30_000, {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      paidDuringOutage = 1;
      await rpc.restore();
    });
    expect(paidDuringOutage).toBe(1);
    expectIntact(figures);
  });

  test("webhook receiver down through many retries: every event arrives after it recovers, in an order receivers can rebuild", async () => {
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
                "update graphile_worker._private_jobs set run_at = now() where task_identifier = 'deliver_webhook' and locked_at is null",
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
          } finally {
            await db.end();
          }
        },
      },
    );
    expectIntact(figures);
    expect(figures.webhooks_delivered).toBeGreaterThan(0);
  });
});
