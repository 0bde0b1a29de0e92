import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { callAs } from "./fixtures.ts";
import { setClock, tick } from "./testClock.ts";

type Json = Record<string, unknown>;
type Schedule = Json & { schedule_id: string; status: string; next_issue_date: string | null };

/**
 * Invoice schedules on the real stack (the API and the worker, TEST_CLOCK=on): months stepped
 * through on the test clock, every period issued once as an ordinary invoice numbered with the
 * merchant's others; pause, resume, cancel and run-now; the template validated as POST
 * /api/invoices validates.
 */
// A test here chains up to eight ticks, each a round of worker jobs that issue and render invoices.
// Under a second CPU-heavy job on this 2-core kind one took over the suite's 180 s bound (a bound,
// not a figure: speed is measured in bench/), so these get room for a 3× slower machine.
describe("invoice schedules", { timeout: 540_000 }, () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { TEST_CLOCK: "on" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = callAs(() => stack);
  const template = (merchant: Merchant, overrides: Json = {}) => {
    const {
      issue_date: _i,
      due_date: _d,
      ...rest
    } = invoiceRequest({
      merchant_email: merchant.email,
      ...overrides,
    });
    return rest;
  };
  const createSchedule = async (merchant: Merchant, body: Json) => {
    const created = await call(merchant, "POST", "/api/invoice-schedules", body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Schedule;
  };
  const scheduledInvoices = async (scheduleId: string) =>
    (
      await stack.db
        .selectFrom("app.invoices")
        .select(["id", "invoice_number", "schedule_period", "issue_date", "due_date", "status"])
        .where("schedule_id", "=", scheduleId)
        .orderBy("schedule_period")
        .execute()
    ).map((row) => ({ ...row }));

  test("monthly on the 31st for 14 months, a leap February among them: 14 invoices, numbered with the others", async () => {
    const merchant = await claimedMerchant(stack.db);
    await setClock(stack.db, "2027-12-20");
    const schedule = await createSchedule(merchant, {
      invoice: template(merchant),
      interval: "monthly",
      start_date: "2027-12-31",
      days_until_due: 30,
    });
    expect(schedule).toMatchObject({
      status: "active",
      next_issue_date: "2027-12-31",
      issued_count: 0,
    });

    const periods = [
      "2027-12-31",
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
      "2028-04-30",
      "2028-05-31",
      "2028-06-30",
      "2028-07-31",
      "2028-08-31",
      "2028-09-30",
      "2028-10-31",
      "2028-11-30",
      "2028-12-31",
      "2029-01-31",
    ];
    // The day before a period nothing is issued; on it, exactly that period; an invoice made by
    // hand in between takes the next number.
    for (const [index, period] of periods.entries()) {
      const dayBefore = new Date(Date.parse(`${period}T00:00:00Z`) - 86_400_000)
        .toISOString()
        .slice(0, 10);
      await setClock(stack.db, dayBefore);
      await tick(stack.db);
      expect(await scheduledInvoices(schedule.schedule_id)).toHaveLength(index);
      await setClock(stack.db, period);
      await tick(stack.db);
      expect(await scheduledInvoices(schedule.schedule_id)).toHaveLength(index + 1);
      const manual = await call(
        merchant,
        "POST",
        "/api/invoices",
        invoiceRequest({ merchant_email: merchant.email }),
      );
      expect(manual.status).toBe(201);
    }
    // A tick more, a month later: nothing new (the 15th period is not due).
    await setClock(stack.db, "2029-02-27");
    await tick(stack.db);

    const issued = await scheduledInvoices(schedule.schedule_id);
    expect(issued.map((i) => i.schedule_period)).toEqual(periods);
    expect(issued.map((i) => i.issue_date)).toEqual(periods);
    expect(issued[2]?.due_date).toBe("2028-03-30"); // 29 February + 30 days
    expect(issued.every((i) => i.status === "sent")).toBe(true);
    // Scheduled and hand-made invoices alternate in one sequence: INV-0001 … INV-0028, no gap.
    const all = await stack.db
      .selectFrom("app.invoices")
      .select(["invoice_number", "schedule_id"])
      .where("merchant_id", "=", merchant.merchantId)
      .orderBy("invoice_number")
      .execute();
    expect(all.map((i) => i.invoice_number)).toEqual(
      Array.from({ length: 28 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`),
    );
    expect(all.map((i) => i.schedule_id !== null)).toEqual(
      Array.from({ length: 28 }, (_, i) => i % 2 === 0),
    );
    // Each one an ordinary invoice: its vendor email queued, schedule_id in the API.
    const emails = await stack.db
      .selectFrom("app.emails")
      .select("invoice_id")
      .where("kind", "=", "vendor_invoice")
      .where(
        "invoice_id",
        "in",
        (await scheduledInvoices(schedule.schedule_id)).map((i) => i.id),
      )
      .execute();
    expect(emails).toHaveLength(14);
    const first = issued[0];
    if (!first) throw new Error("no invoice");
    const detail = await call(merchant, "GET", `/api/invoices/${first.id}`);
    expect(detail.body).toMatchObject({
      schedule_id: schedule.schedule_id,
      issue_date: "2027-12-31",
    });
    const list = await call(merchant, "GET", "/api/invoices?limit=200");
    const rows = (list.body.data as Json[]).filter((r) => r.schedule_id === schedule.schedule_id);
    expect(rows).toHaveLength(14);
    const after = await call(merchant, "GET", `/api/invoice-schedules/${schedule.schedule_id}`);
    expect(after.body).toMatchObject({ issued_count: 14, next_issue_date: "2029-02-28" });
  });

  test("a late start issues each missed period once, dated its own period; a count completes the schedule", async () => {
    const merchant = await claimedMerchant(stack.db);
    await setClock(stack.db, "2030-03-01");
    const schedule = await createSchedule(merchant, {
      invoice: template(merchant),
      interval: "weekly",
      start_date: "2030-03-02",
      count: 4,
      days_until_due: 7,
    });
    // The worker was "down" for 15 days: three periods have passed.
    await setClock(stack.db, "2030-03-17");
    await tick(stack.db);
    await tick(stack.db);
    expect((await scheduledInvoices(schedule.schedule_id)).map((i) => i.schedule_period)).toEqual([
      "2030-03-02",
      "2030-03-09",
      "2030-03-16",
    ]);
    await setClock(stack.db, "2030-06-01");
    await tick(stack.db);
    expect(await scheduledInvoices(schedule.schedule_id)).toHaveLength(4);
    const done = await call(merchant, "GET", `/api/invoice-schedules/${schedule.schedule_id}`);
    expect(done.body).toMatchObject({
      status: "completed",
      next_issue_date: null,
      issued_count: 4,
    });
    const run = await call(merchant, "POST", `/api/invoice-schedules/${schedule.schedule_id}/run`);
    expect([run.status, codeOf(run.body)]).toEqual([409, "schedule_completed"]);
  });

  test("pause, run now, resume, cancel", async () => {
    const merchant = await claimedMerchant(stack.db);
    await setClock(stack.db, "2031-05-10");
    const schedule = await createSchedule(merchant, {
      invoice: template(merchant),
      interval: "every_n_days",
      n: 10,
      start_date: "2031-05-10",
      days_until_due: 14,
    });
    const id = schedule.schedule_id;
    const paused = await call(merchant, "POST", `/api/invoice-schedules/${id}/pause`);
    expect(paused.body).toMatchObject({ status: "paused" });
    await tick(stack.db);
    expect(await scheduledInvoices(id)).toHaveLength(0);

    // Run now bills today, paused or not, answering as POST /api/invoices does.
    await setClock(stack.db, "2031-05-12");
    const run = await call(merchant, "POST", `/api/invoice-schedules/${id}/run`);
    expect(run.status).toBe(201);
    expect(Object.keys(run.body).sort()).toEqual(
      [
        "deposit_address",
        "invoice_id",
        "invoice_number",
        "invoice_url",
        "pdf_url",
        "sent_at",
        "slug",
        "status",
        "total_amount",
        "x402_url",
      ].sort(),
    );
    expect(await scheduledInvoices(id)).toEqual([
      expect.objectContaining({
        schedule_period: "2031-05-10",
        issue_date: "2031-05-12",
        due_date: "2031-05-26",
      }),
    ]);
    const afterRun = await call(merchant, "GET", `/api/invoice-schedules/${id}`);
    expect(afterRun.body).toMatchObject({
      status: "paused",
      next_issue_date: "2031-05-20",
      issued_count: 1,
    });

    // Resumed after its next date: that period is issued (once), the one run now is not again.
    await setClock(stack.db, "2031-05-21");
    const resumed = await call(merchant, "POST", `/api/invoice-schedules/${id}/resume`);
    expect(resumed.body).toMatchObject({ status: "active" });
    await tick(stack.db);
    await tick(stack.db);
    expect((await scheduledInvoices(id)).map((i) => i.schedule_period)).toEqual([
      "2031-05-10",
      "2031-05-20",
    ]);

    // PATCH: a new template and due delay for the invoices to come.
    const patched = await call(merchant, "PATCH", `/api/invoice-schedules/${id}`, {
      invoice: template(merchant, {
        line_items: [{ description: "Retainer", quantity: 1, unit_price: "99.00" }],
      }),
      days_until_due: 3,
    });
    expect(patched.status).toBe(200);
    await setClock(stack.db, "2031-05-30");
    await tick(stack.db);
    const third = (await scheduledInvoices(id))[2];
    expect(third).toMatchObject({ schedule_period: "2031-05-30", due_date: "2031-06-02" });
    const thirdBody = await call(merchant, "GET", `/api/invoices/${third?.id}`);
    expect(thirdBody.body).toMatchObject({ total_amount: "99.00" });

    const cancelled = await call(merchant, "POST", `/api/invoice-schedules/${id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "cancelled", next_issue_date: null });
    await setClock(stack.db, "2031-07-01");
    await tick(stack.db);
    expect(await scheduledInvoices(id)).toHaveLength(3);
    const refused = await call(merchant, "POST", `/api/invoice-schedules/${id}/run`);
    expect([refused.status, codeOf(refused.body)]).toEqual([409, "schedule_cancelled"]);
    for (const action of ["pause", "resume"]) {
      const answerOf = await call(merchant, "POST", `/api/invoice-schedules/${id}/${action}`);
      expect(answerOf.status).toBe(409);
    }
    expect(
      (await call(merchant, "PATCH", `/api/invoice-schedules/${id}`, { count: 9 })).status,
    ).toBe(409);

    // The list, newest first, paged with a cursor, filtered by status.
    const page = await call(merchant, "GET", "/api/invoice-schedules?limit=1&status=cancelled");
    expect((page.body.data as Schedule[]).map((s) => s.schedule_id)).toEqual([id]);
    expect(page.body.next_cursor).toBeNull();
  });

  test("the template is validated exactly as POST /api/invoices validates, under invoice.", async () => {
    const merchant = await claimedMerchant(stack.db);
    const body = {
      invoice: {
        ...template(merchant, { vendor_email: "not-an-email", line_items: [] }),
        due_date: "2030-01-01",
        wallet_typo: "managed",
      },
      interval: "every_n_days",
      start_date: "2030-02-30",
      days_until_due: 30,
    };
    const refused = await call(merchant, "POST", "/api/invoice-schedules", body);
    expect(refused.status).toBe(400);
    const fields = (refused.body.error as { fields: { path: string; code: string }[] }).fields;
    const invoiceAnswer = await call(merchant, "POST", "/api/invoices", {
      ...template(merchant, { vendor_email: "not-an-email", line_items: [] }),
      due_date: "2099-01-01",
      wallet_typo: "managed",
    });
    const invoiceFields = (invoiceAnswer.body.error as { fields: { path: string; code: string }[] })
      .fields;
    // Every field error the invoice endpoint reports, under invoice.; and the schedule's own.
    for (const field of invoiceFields)
      expect(fields).toContainEqual(
        expect.objectContaining({ path: `invoice.${field.path}`, code: field.code }),
      );
    expect(fields).toContainEqual(
      expect.objectContaining({ path: "invoice.due_date", code: "not_allowed" }),
    );
    expect(fields).toContainEqual(
      expect.objectContaining({ path: "start_date", code: "invalid_date" }),
    );
    expect(fields).toContainEqual(expect.objectContaining({ path: "n", code: "required" }));

    // Another merchant's email in the template: the key's merchant only.
    const other = await call(merchant, "POST", "/api/invoice-schedules", {
      invoice: template(merchant, { merchant_email: "someone-else@example.com" }),
      interval: "weekly",
      start_date: "2030-01-01",
      days_until_due: 1,
    });
    expect([other.status, codeOf(other.body)]).toEqual([403, "merchant_mismatch"]);
    // Another merchant's schedule is a 404.
    const mine = await createSchedule(merchant, {
      invoice: template(merchant),
      interval: "weekly",
      start_date: "2040-01-01",
      days_until_due: 1,
    });
    const stranger = await claimedMerchant(stack.db);
    for (const [method, path] of [
      ["GET", `/api/invoice-schedules/${mine.schedule_id}`],
      ["POST", `/api/invoice-schedules/${mine.schedule_id}/run`],
      ["POST", `/api/invoice-schedules/${mine.schedule_id}/cancel`],
    ] as const)
      expect((await call(stranger, method, path)).status).toBe(404);
  });

  test("the payout wallet and the name on the invoice are checked when the template is saved, as POST /api/invoices checks them", async () => {
    const merchant = await claimedMerchant(stack.db);
    const registeredName = `Initrode ${randomUUID()}`;
    await claimedMerchant(stack.db, { name: registeredName });
    const calendar = { interval: "weekly", start_date: "2040-01-01", days_until_due: 7 };
    const unregistered = privateKeyToAccount(generatePrivateKey()).address;
    const byo = template(merchant, { wallet_type: "byo", wallet_address: unregistered });
    const fieldsOf = (body: Json) =>
      ((body.error as { fields?: { path: string; code: string }[] }).fields ?? []).map(
        (f) => `${f.path}:${f.code}`,
      );
    // A wallet that is not one of the merchant's payout wallets: refused now, not at the first period.
    const wallet = await call(merchant, "POST", "/api/invoice-schedules", {
      invoice: byo,
      ...calendar,
    });
    const asInvoice = await call(merchant, "POST", "/api/invoices", {
      ...byo,
      due_date: "2099-01-01",
    });
    expect([wallet.status, asInvoice.status]).toEqual([400, 400]);
    expect(fieldsOf(wallet.body)).toEqual(fieldsOf(asInvoice.body).map((f) => `invoice.${f}`));
    expect(fieldsOf(wallet.body)).toEqual(["invoice.wallet_address:unregistered_wallet"]);
    // Another merchant's registered name.
    const name = await call(merchant, "POST", "/api/invoice-schedules", {
      invoice: template(merchant, { merchant_name: registeredName }),
      ...calendar,
    });
    expect([name.status, codeOf(name.body)]).toEqual([403, "merchant_name_reserved"]);
    expect(fieldsOf(name.body)).toEqual(["invoice.merchant_name:reserved"]);
    // The same on a change of the template; nothing was stored.
    const mine = await createSchedule(merchant, { invoice: template(merchant), ...calendar });
    const patched = await call(merchant, "PATCH", `/api/invoice-schedules/${mine.schedule_id}`, {
      invoice: byo,
    });
    expect(fieldsOf(patched.body)).toEqual(["invoice.wallet_address:unregistered_wallet"]);
    const list = (await call(merchant, "GET", "/api/invoice-schedules")).body.data as Json[];
    expect(list.map((s) => s.schedule_id)).toEqual([mine.schedule_id]);
    expect(list[0]?.invoice).toMatchObject({ wallet_type: "managed" });
  });
});
