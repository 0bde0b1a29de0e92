import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { setClock, settled, tick } from "./testClock.ts";

/**
 * Each period exactly once, whatever happens to the workers: two of them issuing the same
 * schedules at once, then one killed (SIGKILL) in the middle of a run and a fresh one started.
 * The unique (schedule, period) index and the schedule's advance in the invoice's own
 * transaction leave no gap and no double, and the merchant's numbering has no hole.
 */
let stack: TestStack;
const extra: TestProcess[] = [];

beforeAll(async () => {
  stack = await startStack({
    worker: true,
    env: { TEST_CLOCK: "on", WORKER_SCHEDULES_CONCURRENCY: "4" },
  });
});
afterAll(async () => {
  await Promise.all(extra.map((worker) => worker.stop()));
  await stack?.stop();
});

const SCHEDULES = 12;

async function schedulesOf(merchant: Merchant, startDate: string): Promise<string[]> {
  const {
    issue_date: _i,
    due_date: _d,
    ...template
  } = invoiceRequest({
    merchant_email: merchant.email,
  });
  const ids: string[] = [];
  for (let i = 0; i < SCHEDULES; i++) {
    const response = await stack.request("/api/invoice-schedules", {
      method: "POST",
      headers: bearer(merchant.key),
      json: { invoice: template, interval: "weekly", start_date: startDate, days_until_due: 7 },
    });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { schedule_id: string }).schedule_id);
  }
  return ids;
}

/** Every (schedule, period) issued, and the merchant's invoice numbers. */
async function issued(merchant: Merchant) {
  const rows = await stack.db
    .selectFrom("app.invoices")
    .select(["schedule_id", "schedule_period", "invoice_number"])
    .where("merchant_id", "=", merchant.merchantId)
    .orderBy("invoice_number")
    .execute();
  return rows;
}

const sequence = (n: number) =>
  Array.from({ length: n }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`);

test("two workers at once, then one killed mid-run: every period issued exactly once", async () => {
  const merchant = await claimedMerchant(stack.db);
  await setClock(stack.db, "2032-01-01");
  const ids = await schedulesOf(merchant, "2032-01-03");
  const second = stack.startWorker({ WORKER_SCHEDULES_CONCURRENCY: "4" });
  extra.push(second);
  // Three weeks due at once in both workers: the tick queues one job per schedule, and each
  // worker's cron queues its own; both take jobs.
  await setClock(stack.db, "2032-01-17");
  await tick(stack.db);
  await sql`select graphile_worker.add_job('issue_schedule', json_build_object('schedule_id', id), job_key := 'again:' || id) from app.invoice_schedules where id in (${sql.join(ids)})`.execute(
    stack.db,
  );
  await settled(stack.db);
  let rows = await issued(merchant);
  expect(rows).toHaveLength(SCHEDULES * 3);
  expect(new Set(rows.map((r) => `${r.schedule_id}|${r.schedule_period}`)).size).toBe(
    SCHEDULES * 3,
  );
  expect(rows.map((r) => r.invoice_number)).toEqual(sequence(SCHEDULES * 3));

  // The next week's run: kill -9 the stack's worker as soon as it has issued some.
  await setClock(stack.db, "2032-01-24");
  const worker = stack.worker;
  if (!worker) throw new Error("no worker");
  await sql`select graphile_worker.add_job('issue_due_schedules', '{}'::json, job_key := 'issue_due_schedules')`.execute(
    stack.db,
  );
  await waitFor(
    "some of the week's invoices",
    async () => (await issued(merchant)).length > SCHEDULES * 3,
    { timeoutMs: EVENT_MS, intervalMs: 20 },
  );
  worker.process.kill("SIGKILL");
  // A fresh worker; the next tick queues what the dead one held again.
  extra.push(stack.startWorker({ WORKER_SCHEDULES_CONCURRENCY: "4" }));
  await waitFor(
    "every schedule past the week",
    async () => {
      await tick(stack.db, 120_000);
      const left = await stack.db
        .selectFrom("app.invoice_schedules")
        .select("id")
        .where("id", "in", ids)
        .where("next_period", "<", 4)
        .execute();
      return left.length === 0;
    },
    { timeoutMs: 180_000, intervalMs: 1_000 },
  );
  rows = await issued(merchant);
  expect(rows).toHaveLength(SCHEDULES * 4);
  expect(new Set(rows.map((r) => `${r.schedule_id}|${r.schedule_period}`)).size).toBe(
    SCHEDULES * 4,
  );
  expect(rows.map((r) => r.invoice_number)).toEqual(sequence(SCHEDULES * 4));
  const counts = await stack.db
    .selectFrom("app.invoice_schedules")
    .select(["issued_count", "next_issue_date"])
    .where("id", "in", ids)
    .execute();
  expect(counts.every((c) => c.issued_count === 4 && c.next_issue_date === "2032-01-31")).toBe(
    true,
  );
}, 400_000);
