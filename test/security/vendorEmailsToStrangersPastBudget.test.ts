import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

const PER_HOUR = 4;

/**
 * The attack: one merchant has Remit email strangers as fast as it can create invoices (or
 * schedules, or reminders): 199 emails with a PDF to a third party in 144 s. Every email to an
 * address that is not the account's own now counts against a budget per merchant per hour and
 * per day (EMAILS_TO_OTHERS_PER_HOUR / _PER_DAY): past it, the request is a 429
 * `email_budget_exhausted` naming the budget, and nothing is created or queued. The account's
 * own address is free, and another merchant's budget is its own.
 */
describe("emails to strangers past the merchant's budget", () => {
  let stack: TestStack;
  let merchant: Merchant;
  let neighbour: Merchant;

  beforeAll(async () => {
    stack = await startStack({
      env: { EMAILS_TO_OTHERS_PER_HOUR: String(PER_HOUR), EMAILS_TO_OTHERS_PER_DAY: "100" },
    });
    [merchant, neighbour] = await Promise.all([
      claimedMerchant(stack.db),
      claimedMerchant(stack.db),
    ]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = async (as: Merchant, method: string, path: string, json?: unknown) => {
    const response = await stack.request(path, {
      method,
      headers: bearer(as.key),
      ...(json === undefined ? {} : { json }),
    });
    return { ...(await answer(response)), retryAfter: response.headers.get("retry-after") };
  };
  const invoiceTo = (as: Merchant, vendor: string, extra: Json = {}) =>
    call(
      as,
      "POST",
      "/api/invoices",
      invoiceRequest({ merchant_email: as.email, vendor_email: vendor, ...extra }),
    );
  const emailsOf = async (as: Merchant) =>
    (
      await stack.db
        .selectFrom("app.emails as e")
        .innerJoin("app.invoices as i", "i.id", "e.invoice_id")
        .select("e.recipient")
        .where("i.merchant_id", "=", as.merchantId)
        .execute()
    ).map((row) => row.recipient);
  const invoicesOf = async (as: Merchant) =>
    (
      await stack.db
        .selectFrom("app.invoices")
        .select("id")
        .where("merchant_id", "=", as.merchantId)
        .execute()
    ).length;

  test("the budget's worth of vendor emails, then 429 naming it; own address free; the neighbour unaffected", async () => {
    const first = await invoiceTo(merchant, `stranger-${randomUUID()}@example.com`);
    expect(first.status).toBe(201);
    const firstId = (first.body as Json).invoice_id as string;
    // Concurrent creations count each other: exactly the budget passes.
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => invoiceTo(merchant, `stranger-${randomUUID()}@example.com`)),
    );
    expect(burst.filter((a) => a.status === 201)).toHaveLength(PER_HOUR - 1);
    const refused = burst.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(8 - (PER_HOUR - 1));
    for (const answer of refused) {
      expect([answer.status, codeOf(answer.body)]).toEqual([429, "email_budget_exhausted"]);
      expect(JSON.stringify(answer.body)).toContain("EMAILS_TO_OTHERS_PER_HOUR");
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    expect(await emailsOf(merchant)).toHaveLength(PER_HOUR);
    expect(await invoicesOf(merchant)).toBe(PER_HOUR);

    // A draft emails nobody; sending it would: 429, it stays a draft.
    const draft = await invoiceTo(merchant, `stranger-${randomUUID()}@example.com`, {
      send_now: false,
    });
    expect(draft.status).toBe(201);
    const draftId = (draft.body as Json).invoice_id as string;
    const send = await call(merchant, "POST", `/api/invoices/${draftId}/send`);
    expect([send.status, codeOf(send.body)]).toEqual([429, "email_budget_exhausted"]);
    expect((await call(merchant, "GET", `/api/invoices/${draftId}`)).body).toMatchObject({
      status: "draft",
    });
    // A reminder to a vendor: the same budget (the invoice emailed a day ago, so its cadence
    // would let a reminder go: domain/reminders.ts reminderHold).
    await sql`update app.invoices set sent_at = sent_at - interval '25 hours'
      where id = ${firstId}::uuid`.execute(stack.db);
    const remind = await call(merchant, "POST", `/api/invoices/${firstId}/remind`);
    expect([remind.status, codeOf(remind.body)]).toEqual([429, "email_budget_exhausted"]);

    // The account's own address is not a stranger's.
    expect((await invoiceTo(merchant, merchant.email)).status).toBe(201);
    // Another merchant has a budget of its own.
    expect((await invoiceTo(neighbour, `customer-${randomUUID()}@example.com`)).status).toBe(201);
    expect(await emailsOf(merchant)).toHaveLength(PER_HOUR + 1);
  });
});
