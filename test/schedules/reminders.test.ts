import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addDays } from "../../domain/schedule.ts";
import { bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { priced, until } from "../refunds/helpers.ts";
import { callAs } from "./fixtures.ts";
import { setClock, tick } from "./testClock.ts";

type Json = Record<string, unknown>;
type Created = Json & { invoice_id: string; deposit_address: `0x${string}` };

/**
 * Reminders and aged receivables on the real stack (anvil with USDC, Ponder, the worker; the
 * test clock): a reminder at each step of the policy for an unpaid invoice, with the amount
 * still due after a partial payment and the PDF; none once paid or voided; the due-date events
 * once each to the merchant's endpoint; the report's buckets against figures worked out by hand.
 */
describe("reminders and receivables", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true, env: { TEST_CLOCK: "on" } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  const call = callAs(() => stack);
  const create = async (merchant: Merchant, overrides: Json) => {
    const created = await call(
      merchant,
      "POST",
      "/api/invoices",
      invoiceRequest({ merchant_email: merchant.email, ...overrides }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Created;
  };
  const remindersOf = async (invoiceId: string) =>
    stack.db
      .selectFrom("app.invoice_reminders")
      .select(["step", "amount_due"])
      .where("invoice_id", "=", invoiceId)
      .orderBy("created_at")
      .execute();
  const statusOf = async (merchant: Merchant, id: string) =>
    (await call(merchant, "GET", `/api/invoices/${id}`)).body.stored_status;

  test("each policy step once for an unpaid invoice, the amount after a partial payment; none once paid or voided", async () => {
    const merchant = await claimedMerchant(stack.db);
    const endpoint = await call(merchant, "POST", "/api/webhook-endpoints", {
      url: receiver.url,
      events: ["invoice.will_be_due", "invoice.overdue"],
    });
    expect(endpoint.status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const due = addDays(today, 10);
    await setClock(stack.db, today);
    const unpaid = await create(merchant, { ...priced("3.00"), due_date: due, issue_date: today });
    const paid = await create(merchant, { ...priced("2.00"), due_date: due, issue_date: today });
    const voided = await create(merchant, { ...priced("2.00"), due_date: due, issue_date: today });
    await chain.payUsdc(devAccount(1), paid.deposit_address, 2_000_000n);
    await until("paid", async () => (await statusOf(merchant, paid.invoice_id)) === "paid");
    expect(
      (await call(merchant, "POST", `/api/invoices/${voided.invoice_id}/void`, {})).status,
    ).toBe(200);

    const steps: [number, number[]][] = [
      [-4, []],
      [-3, [-3]],
      [-1, [-3]],
      [0, [-3, 0]],
      [7, [-3, 0, 7]],
      [14, [-3, 0, 7, 14]],
      [30, [-3, 0, 7, 14]],
    ];
    for (const [day, expected] of steps) {
      await setClock(stack.db, addDays(due, day));
      await tick(stack.db);
      expect((await remindersOf(unpaid.invoice_id)).map((r) => r.step)).toEqual(expected);
      if (day === 0) {
        // Part paid after the due-date reminder: the next ones ask for what is left.
        await chain.payUsdc(devAccount(1), unpaid.deposit_address, 1_250_000n);
        await until(
          "partial",
          async () => (await statusOf(merchant, unpaid.invoice_id)) === "partial",
        );
      }
    }
    expect((await remindersOf(unpaid.invoice_id)).map((r) => r.amount_due)).toEqual([
      3_000_000n,
      3_000_000n,
      1_750_000n,
      1_750_000n,
    ]);
    expect(await remindersOf(paid.invoice_id)).toEqual([]);
    expect(await remindersOf(voided.invoice_id)).toEqual([]);

    // The emails: to the vendor, the link, the amount due, the PDF attached.
    const emails = await until("the four reminder emails", async () => {
      const found = (await stack.outbox()).filter((e) => e.subject.startsWith("Reminder: invoice"));
      return found.length === 4 && found;
    });
    const last = emails.find((e) => e.text?.includes("1.75 USDC"));
    expect(last?.to).toEqual(["ap@globex.example"]);
    expect(last?.text).toContain(`/i/`);
    expect(last?.attachments).toEqual([expect.objectContaining({ type: "application/pdf" })]);

    // The due-date events: once each, for the open invoice only, in the log and delivered.
    const events = await call(merchant, "GET", "/api/events");
    const types = (events.body.data as Json[]).map((e) => `${e.type}:${e.invoice_id}`).sort();
    expect(types).toEqual(
      [
        `invoice.overdue:${unpaid.invoice_id}`,
        `invoice.will_be_due:${unpaid.invoice_id}`,
        `invoice.paid:${paid.invoice_id}`,
        `invoice.partial:${unpaid.invoice_id}`,
        // The void of a sent invoice issues a full credit note (docs/api.md, "Credit notes").
        `credit_note.created:${voided.invoice_id}`,
      ].sort(),
    );
    const delivered = await until(
      "both deliveries",
      async () => receiver.received.length >= 2 && receiver.received,
    );
    expect(delivered.map((d) => JSON.parse(d.body).type).sort()).toEqual([
      "invoice.overdue",
      "invoice.will_be_due",
    ]);

    // On request: rate-limited per invoice, and 409 when nothing is due.
    const now = await call(merchant, "POST", `/api/invoices/${unpaid.invoice_id}/remind`);
    expect(now.status).toBe(202);
    expect(now.body).toMatchObject({ invoice_id: unpaid.invoice_id, amount_due: "1.75" });
    for (const id of [paid.invoice_id, voided.invoice_id]) {
      const refused = await call(merchant, "POST", `/api/invoices/${id}/remind`);
      expect([refused.status, codeOf(refused.body)]).toEqual([409, "nothing_due"]);
    }
    // The next one waits a day: one cadence for every reminder (see the next tests).
    const limited = await stack.request(`/api/invoices/${unpaid.invoice_id}/remind`, {
      method: "POST",
      headers: bearer(merchant.key),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 300_000);

  test("the policy: stored per merchant, steps turned off and a cap respected", async () => {
    const merchant = await claimedMerchant(stack.db);
    const defaults = await call(merchant, "GET", "/api/reminder-policy");
    expect(defaults.body).toEqual({
      enabled: true,
      steps: [
        { days: -3, enabled: true },
        { days: 0, enabled: true },
        { days: 7, enabled: true },
        { days: 14, enabled: true },
      ],
      max_reminders: 4,
    });
    const changed = await call(merchant, "PATCH", "/api/reminder-policy", {
      steps: [
        { days: 5, enabled: true },
        { days: -3, enabled: false },
        { days: 1, enabled: true },
      ],
      max_reminders: 1,
    });
    expect(changed.body).toMatchObject({
      steps: [
        { days: -3, enabled: false },
        { days: 1, enabled: true },
        { days: 5, enabled: true },
      ],
      max_reminders: 1,
    });
    const bad = await call(merchant, "PATCH", "/api/reminder-policy", {
      steps: [{ days: 200, enabled: true }],
    });
    expect(bad.status).toBe(400);

    const today = new Date().toISOString().slice(0, 10);
    const due = addDays(today, 20);
    await setClock(stack.db, today);
    const invoice = await create(merchant, { ...priced("1.00"), due_date: due, issue_date: today });
    for (const day of [-3, 1, 5]) {
      await setClock(stack.db, addDays(due, day));
      await tick(stack.db);
    }
    expect((await remindersOf(invoice.invoice_id)).map((r) => r.step)).toEqual([1]);
  });

  /** The reminders of these invoices: which invoice, which step (null: by hand), when. */
  const remindersOfAll = async (ids: string[]) =>
    stack.db
      .selectFrom("app.invoice_reminders")
      .select(["invoice_id", "step", "sent_at"])
      .where("invoice_id", "in", ids)
      .orderBy("created_at")
      .execute();
  const remind = (merchant: Merchant, id: string) =>
    call(merchant, "POST", `/api/invoices/${id}/remind`);
  /** A customer of its own: the cap per customer is per address. */
  const customer = () => `ap-${crypto.randomUUID()}@example.com`;

  test("reminders know each other: by hand and automatic share one cadence, and one cap per customer a day", async () => {
    const merchant = await claimedMerchant(stack.db);
    const vendor = customer();
    const today = new Date().toISOString().slice(0, 10);
    const due = addDays(today, 2);
    await setClock(stack.db, today);
    const a = await create(merchant, { due_date: due, issue_date: today, vendor_email: vendor });
    const b = await create(merchant, { due_date: due, issue_date: today, vendor_email: vendor });
    const ids = [a.invoice_id, b.invoice_id];

    // The day after the due date: two reminders of A by hand, one of B, and the sweep (issue 42:
    // three emails in 28 s, two by hand, then an automatic one that ignored them). One goes,
    // whoever sends it first (the worker's own minute may come before these calls): the next
    // reminder of A waits a day, and B's customer was reminded today.
    await setClock(stack.db, addDays(due, 1));
    const calls = [
      await remind(merchant, a.invoice_id),
      await remind(merchant, a.invoice_id),
      await remind(merchant, b.invoice_id),
    ];
    await tick(stack.db);
    await tick(stack.db);
    const burst = await remindersOfAll(ids);
    expect(burst).toHaveLength(1);
    expect(calls.filter((c) => c.status === 202).length).toBe(burst[0]?.step === null ? 1 : 0);
    for (const refused of calls.filter((c) => c.status !== 202)) {
      expect([refused.status, codeOf(refused.body)]).toEqual([429, "rate_limited"]);
      expect(JSON.stringify(refused.body)).toMatch(
        /reminded less than 24 hours ago|at most 1 a day per customer/,
      );
    }

    // Two days on, the other invoice's due step goes; the first one's step was covered by the
    // reminder it got (by hand or not), and is not sent again.
    await setClock(stack.db, addDays(due, 3));
    await tick(stack.db);
    const twoDays = await remindersOfAll(ids);
    expect(twoDays.map((r) => r.invoice_id).sort()).toEqual([...ids].sort());

    // A week after the due date both invoices reach step 7: one reminder that day, the other
    // the next; never two to the customer within a day, by hand or automatic.
    await setClock(stack.db, addDays(due, 7));
    await tick(stack.db);
    expect((await remindersOfAll(ids)).filter((r) => r.step === 7)).toHaveLength(1);
    await setClock(stack.db, addDays(due, 9));
    await tick(stack.db);
    const all = await remindersOfAll(ids);
    expect(
      all
        .filter((r) => r.step === 7)
        .map((r) => r.invoice_id)
        .sort(),
    ).toEqual(ids.sort());
    const times = all.map((r) => r.sent_at.getTime()).sort((x, y) => x - y);
    for (let i = 1; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(86_400_000);
  }, 300_000);

  test("a schedule started in the past: its invoices are not called overdue minutes after they are issued", async () => {
    const merchant = await claimedMerchant(stack.db);
    const vendor = customer();
    const today = new Date().toISOString().slice(0, 10);
    await setClock(stack.db, today);
    const {
      issue_date: _i,
      due_date: _d,
      ...template
    } = invoiceRequest({
      merchant_email: merchant.email,
      vendor_email: vendor,
    });
    const schedule = await call(merchant, "POST", "/api/invoice-schedules", {
      invoice: template,
      interval: "every_n_days",
      n: 30,
      start_date: addDays(today, -60),
      days_until_due: 7,
      backfill: true,
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    await tick(stack.db);
    await tick(stack.db);
    const issued = await stack.db
      .selectFrom("app.invoices")
      .select(["id", "due_date"])
      .where("schedule_id", "=", schedule.body.schedule_id as string)
      .orderBy("due_date")
      .execute();
    // Three at once, two of them past their due date.
    expect(issued.map((i) => i.due_date)).toEqual([
      addDays(today, -53),
      addDays(today, -23),
      addDays(today, 7),
    ]);
    const ids = issued.map((i) => i.id);
    // The merchant is told they are overdue (its event log); the customer is not reminded yet.
    const events = await call(merchant, "GET", "/api/events?type=invoice.overdue");
    expect((events.body.data as Json[]).map((e) => e.invoice_id).sort()).toEqual(
      ids.slice(0, 2).sort(),
    );
    expect(await remindersOfAll(ids)).toEqual([]);
    await until("the three invoice emails", async () => {
      const sent = (await stack.outbox()).filter((e) => e.to.includes(vendor));
      return sent.length === 3 && sent;
    });
    const toVendor = async () => (await stack.outbox()).filter((e) => e.to.includes(vendor));
    expect((await toVendor()).filter((e) => /overdue|Reminder/i.test(e.subject))).toEqual([]);

    // Two days later: one reminder, overdue now that the customer has had it for a day; one more
    // the day after that (one a day per customer), never one of the missed steps each.
    await setClock(stack.db, addDays(today, 2));
    await tick(stack.db);
    expect(await remindersOfAll(ids)).toHaveLength(1);
    await setClock(stack.db, addDays(today, 4));
    await tick(stack.db);
    const reminders = await remindersOfAll(ids);
    expect(reminders).toHaveLength(2);
    expect(reminders.every((r) => r.step === 14 || r.step === -3)).toBe(true);
    const emails = await until("the two reminder emails", async () => {
      const sent = (await toVendor()).filter((e) => e.subject.startsWith("Reminder:"));
      return sent.length === 2 && sent;
    });
    expect(emails.some((e) => e.subject.endsWith("overdue"))).toBe(true);
  }, 300_000);

  test("overdue at any age: 119 days past due, invoice.overdue once however often the sweep runs, and its reminder", async () => {
    const merchant = await claimedMerchant(stack.db);
    const endpoint = await call(merchant, "POST", "/api/webhook-endpoints", {
      url: receiver.url,
      events: ["invoice.overdue"],
    });
    expect(endpoint.status).toBe(201);
    const vendor = customer();
    const today = new Date().toISOString().slice(0, 10);
    const due = addDays(today, -119);
    await setClock(stack.db, today);
    const old = await create(merchant, {
      ...priced("4.00"),
      issue_date: due,
      due_date: due,
      vendor_email: vendor,
    });
    await tick(stack.db);
    await tick(stack.db);
    const overdueEvents = async () =>
      (
        (await call(merchant, "GET", "/api/events?type=invoice.overdue")).body.data as Json[]
      ).filter((e) => e.invoice_id === old.invoice_id);
    expect(await overdueEvents()).toHaveLength(1);
    expect((await overdueEvents())[0]).toMatchObject({ due_date: due, amount_due: "4.00" });
    const delivered = await until("the overdue event delivered", async () =>
      receiver.received.find((h) => h.body.includes(old.invoice_id)),
    );
    expect(JSON.parse(delivered.body)).toMatchObject({ type: "invoice.overdue" });
    // Emailed minutes ago: not reminded yet.
    expect(await remindersOf(old.invoice_id)).toEqual([]);

    // A day and more later: the policy's last step, once; the sweep then forgets the invoice.
    await setClock(stack.db, addDays(today, 2));
    await tick(stack.db);
    await tick(stack.db);
    expect((await remindersOf(old.invoice_id)).map((r) => r.step)).toEqual([14]);
    expect(await overdueEvents()).toHaveLength(1);
    const email = await stack.waitForEmail(
      (e) => e.to.includes(vendor) && e.subject.startsWith("Reminder:"),
    );
    expect(email.subject).toMatch(/4(\.00)? USDC overdue$/);
    expect(email.text).toContain(`was due on ${due} (121 days ago)`);
    const check = await stack.db
      .selectFrom("app.reminder_checks")
      .select("check_at")
      .where("invoice_id", "=", old.invoice_id)
      .executeTakeFirstOrThrow();
    expect(check.check_at).toBeNull();
    expect(
      receiver.received.filter((h) => h.body.includes(old.invoice_id)),
      "delivered once",
    ).toHaveLength(1);
  }, 300_000);

  test("aged receivables: buckets, vendors and totals as worked out by hand; the CSV", async () => {
    const merchant = await claimedMerchant(stack.db);
    const today = "2033-06-15";
    await setClock(stack.db, today);
    const make = (vendor: string, price: string, dueIn: number) =>
      create(merchant, {
        ...priced(price),
        vendor_email: `ap@${vendor.toLowerCase()}.example`,
        vendor_name: vendor,
        issue_date: "2033-01-01",
        due_date: addDays(today, dueIn),
      });
    await make("Xenon", "100.00", 5); // current: 100.00
    const partly = await make("Xenon", "50.00", -10); // 1–30: 50.00 less 20.00 paid
    await make("Yarrow", "10.00", -45); // 31–60
    await make("Yarrow", "7.50", -75); // 61–90
    await make("Zinc", "1.25", -120); // over 90
    await make("Zinc", "1.00", 0); // due today: current
    const paid = await make("Zinc", "4.00", -40); // paid: left out
    const voided = await make("Yarrow", "9.00", -5); // void: left out
    await create(merchant, { ...priced("8.00"), send_now: false, due_date: addDays(today, -3) }); // a draft: left out
    await chain.payUsdc(devAccount(1), partly.deposit_address, 20_000_000n);
    await chain.payUsdc(devAccount(1), paid.deposit_address, 4_000_000n);
    await call(merchant, "POST", `/api/invoices/${voided.invoice_id}/void`, {});
    await until(
      "payments counted",
      async () =>
        (await statusOf(merchant, partly.invoice_id)) === "partial" &&
        (await statusOf(merchant, paid.invoice_id)) === "paid",
    );

    const report = await call(merchant, "GET", "/api/reports/receivables");
    expect(report.status).toBe(200);
    expect(report.body).toEqual({
      as_of: today,
      currency: "USDC",
      vendors: [
        {
          vendor_email: "ap@xenon.example",
          vendor_name: "Xenon",
          invoice_count: 2,
          buckets: {
            current: "100.00",
            "1_30": "30.00",
            "31_60": "0.00",
            "61_90": "0.00",
            over_90: "0.00",
          },
          total: "130.00",
        },
        {
          vendor_email: "ap@yarrow.example",
          vendor_name: "Yarrow",
          invoice_count: 2,
          buckets: {
            current: "0.00",
            "1_30": "0.00",
            "31_60": "10.00",
            "61_90": "7.50",
            over_90: "0.00",
          },
          total: "17.50",
        },
        {
          vendor_email: "ap@zinc.example",
          vendor_name: "Zinc",
          invoice_count: 2,
          buckets: {
            current: "1.00",
            "1_30": "0.00",
            "31_60": "0.00",
            "61_90": "0.00",
            over_90: "1.25",
          },
          total: "2.25",
        },
      ],
      totals: {
        current: "101.00",
        "1_30": "30.00",
        "31_60": "10.00",
        "61_90": "7.50",
        over_90: "1.25",
      },
      total: "149.75",
      invoice_count: 6,
    });
    // The total is the sum of the open invoices' amount_due as the list reports them.
    const list = await call(merchant, "GET", "/api/invoices?limit=200");
    const toUnits = (amount: string) => {
      const [whole = "0", fraction = ""] = amount.split(".");
      return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
    };
    const units = (list.body.data as { amount_due: string; stored_status: string }[])
      .filter((row) => row.stored_status === "sent" || row.stored_status === "partial")
      .reduce((sum, row) => sum + toUnits(row.amount_due), 0n);
    expect(units).toBe(149_750_000n);

    const csv = await stack.request("/api/exports/receivables.csv?bom=false", {
      headers: bearer(merchant.key),
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(await csv.text()).toBe(
      [
        "vendor_name,vendor_email,invoices,current,days_1_30,days_31_60,days_61_90,days_over_90,total,currency",
        "Xenon,ap@xenon.example,2,100.00,30.00,0.00,0.00,0.00,130.00,USDC",
        "Yarrow,ap@yarrow.example,2,0.00,0.00,10.00,7.50,0.00,17.50,USDC",
        "Zinc,ap@zinc.example,2,1.00,0.00,0.00,0.00,1.25,2.25,USDC",
        "Total,,6,101.00,30.00,10.00,7.50,1.25,149.75,USDC",
        "",
      ].join("\r\n"),
    );
  }, 180_000);
});
