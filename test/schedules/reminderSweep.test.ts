import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sweepReminders } from "../../app/reminders/remind.ts";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import type { Clock } from "../../db/clock.ts";
import type { Db } from "../../db/database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

const DAY_MS = 86_400_000;

/** A clock stopped at `moment`. */
const stoppedAt = (moment: Date): Clock => ({
  now: async () => moment,
  today: async () => moment.toISOString().slice(0, 10),
});

/**
 * The reminder sweep over many open invoices of every age (the query layer and the use case on
 * a seeded database, no worker): overdue at any age (the sweep once looked back 90 days only),
 * one cap per customer at scale, and a sweep that reads only what has come due, so a minute's
 * sweep reads nothing when nothing is due however many invoices are open.
 */
describe("the reminder sweep at scale", () => {
  let database: TestDatabase;
  let db: Db;
  let merchantId: string;
  // 200 days on: every seeded open invoice is 120 to 220 days past its due date.
  const later = new Date(Date.now() + 200 * DAY_MS);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    const made = await db
      .insertInto("app.merchants")
      .values({ email: `sweep-${randomUUID()}@example.com` })
      .returning("id")
      .executeTakeFirstOrThrow();
    merchantId = made.id;
    await seedMerchantVolume(db, [merchantId], { invoices: 2000, payments: 400, links: 0 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  const dueChecks = async (moment: Date) => {
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from app.reminder_checks
      where check_at is not null and check_at <= ${moment}`.execute(db);
    return Number(rows[0]?.n);
  };

  test("every open invoice, however old, gets invoice.overdue once and one reminder a day per customer", async () => {
    // Open with something still due (a seeded `partial` may have been paid in full).
    const { rows } = await sql<{ open: string; customers: string }>`
      select count(*)::text as open, count(distinct lower(vendor_email))::text as customers
      from app.invoices i left join app.payment_state s on s.deposit_address = i.deposit_address
      where i.merchant_id = ${merchantId} and i.status in ('sent', 'partial')
        and coalesce(s.received, 0) < i.total_amount`.execute(db);
    const open = Number(rows[0]?.open);
    const customers = Number(rows[0]?.customers);
    expect(open).toBeGreaterThan(500);
    expect(customers).toBeLessThan(open);
    // Every open invoice is waiting for the sweep's first look.
    expect(await dueChecks(later)).toBeGreaterThanOrEqual(open);

    const first = await sweepReminders(db, stoppedAt(later));
    expect(first.events).toBe(open);
    // The policy's last step for each customer's first invoice: the others wait a day each.
    expect(first.reminders).toBe(customers);
    expect(first.deferred).toBe(0);

    // The same minute again: nothing is read, nothing recorded twice.
    expect(await dueChecks(later)).toBe(0);
    expect(await sweepReminders(db, stoppedAt(later))).toEqual({
      reminders: 0,
      events: 0,
      deferred: 0,
    });

    // A day on: the next invoice of each customer that has one, and no event again.
    const dayAfter = new Date(later.getTime() + DAY_MS + 60_000);
    const second = await sweepReminders(db, stoppedAt(dayAfter));
    expect(second.events).toBe(0);
    expect(second.reminders).toBeGreaterThan(0);
    expect(second.reminders).toBeLessThanOrEqual(customers);

    const { rows: counts } = await sql<{ events: string; reminders: string; per_day: string }>`
      select
        (select count(*) from app.payment_events e join app.invoices i on i.id = e.invoice_id
          where i.merchant_id = ${merchantId} and e.type = 'invoice.overdue')::text as events,
        (select count(*) from app.invoice_reminders where merchant_id = ${merchantId})::text as reminders,
        (select max(n) from (select count(*) as n from app.invoice_reminders
          where merchant_id = ${merchantId} group by customer, sent_at::date) d)::text as per_day`.execute(
      db,
    );
    expect(counts[0]).toEqual({
      events: String(open),
      reminders: String(customers + second.reminders),
      per_day: "1",
    });
  }, 300_000);

  test("the sweep's query walks its own index", async () => {
    await sql`analyze app.reminder_checks`.execute(db);
    const { rows } = await sql<{ "QUERY PLAN": string }>`
      explain select invoice_id from app.reminder_checks
      where check_at is not null and check_at <= ${later}
      order by check_at, invoice_id limit 500`.execute(db);
    expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("reminder_checks_due");
  });
});
