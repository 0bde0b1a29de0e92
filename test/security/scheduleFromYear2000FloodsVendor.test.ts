import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addDays, MAX_BACKFILL_PERIODS } from "../../domain/schedule.ts";
import { claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { postSchedule } from "../schedules/fixtures.ts";
import { setClock, tick } from "../schedules/testClock.ts";

type Json = Record<string, unknown>;

/**
 * The attack: a schedule starting 2000-01-01, every day, no `count`: one request issued 200
 * invoices (and emailed 199 PDFs to a third party) in 144 s, and kept going. Now a start in the
 * past owes only the current period; the past ones are issued only with `backfill`, at most
 * MAX_BACKFILL_PERIODS of them (a 400 that says so), and an interval is at least a day.
 */
describe("a schedule starting in 2000 cannot flood its vendor", () => {
  let stack: TestStack;
  let merchant: Merchant;
  const today = "2030-06-15";

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { TEST_CLOCK: "on" } });
    merchant = await claimedMerchant(stack.db);
    await setClock(stack.db, today);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = (vendor: string, body: Json) =>
    postSchedule(stack, merchant, body, { vendor_email: vendor });
  const invoicesOf = async (scheduleId: string) =>
    stack.db
      .selectFrom("app.invoices")
      .select(["issue_date", "schedule_period"])
      .where("schedule_id", "=", scheduleId)
      .orderBy("schedule_period")
      .execute();
  const schedulesOfMerchant = async () =>
    (
      await stack.db
        .selectFrom("app.invoice_schedules")
        .select("id")
        .where("merchant_id", "=", merchant.merchantId)
        .execute()
    ).length;
  const emailsTo = async (vendor: string) =>
    (await stack.outbox()).filter((email) => email.to.includes(vendor)).length;

  test("every day from 2000-01-01, no count: one invoice (today's) and one email", async () => {
    const vendor = `victim-${randomUUID()}@example.com`;
    const created = await create(vendor, {
      interval: "every_n_days",
      n: 1,
      start_date: "2000-01-01",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((created.body as Json).next_issue_date).toBe(today);
    const id = (created.body as Json).schedule_id as string;
    await tick(stack.db);
    await tick(stack.db);
    const issued = await invoicesOf(id);
    expect(issued.map((row) => row.issue_date)).toEqual([today]);
    await stack.waitForEmail((email) => email.to.includes(vendor));
    expect(await emailsTo(vendor)).toBe(1);
  });

  test("backfill from 2000 is a 400 naming the cap, and nothing is created", async () => {
    const vendor = `victim-${randomUUID()}@example.com`;
    const before = await schedulesOfMerchant();
    const refused = await create(vendor, {
      interval: "every_n_days",
      n: 1,
      start_date: "2000-01-01",
      backfill: true,
    });
    expect(refused.status).toBe(400);
    const field = ((refused.body as { error: { fields: Json[] } }).error.fields ?? [])[0];
    expect(field).toMatchObject({ path: "backfill", code: "too_many_periods" });
    expect(String(field?.message)).toContain(`at most ${MAX_BACKFILL_PERIODS}`);
    expect(await schedulesOfMerchant()).toBe(before);
  });

  test("a backfill within the cap issues each past period once, dated its own day", async () => {
    const vendor = `customer-${randomUUID()}@example.com`;
    const start = addDays(today, -(MAX_BACKFILL_PERIODS - 1));
    const created = await create(vendor, {
      interval: "every_n_days",
      n: 1,
      start_date: start,
      backfill: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await tick(stack.db);
    const issued = await invoicesOf((created.body as Json).schedule_id as string);
    expect(issued).toHaveLength(MAX_BACKFILL_PERIODS);
    expect(issued[0]?.issue_date).toBe(start);
  });

  test("an interval under a day is refused", async () => {
    for (const n of [0, 0.5, -1]) {
      const refused = await create(`x-${randomUUID()}@example.com`, {
        interval: "every_n_days",
        n,
        start_date: today,
      });
      expect(refused.status).toBe(400);
    }
  });
});
