import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * The attack: `POST /api/invoices/{id}/remind` emails the invoice's vendor; called in a loop it
 * would turn Remit into a mail cannon aimed at one address (and at the merchant's sender
 * reputation). Only the invoice's merchant may call it (a known invoice id authorises nothing),
 * and every reminder keeps one cadence (domain/reminders.ts reminderHold): none within a day of
 * the invoice's own email or of its last reminder, one a day per customer whichever invoice,
 * however many calls: counted under the invoice's and the customer's locks, so concurrent
 * calls cannot slip past it.
 */
describe("reminder emails cannot be used to flood a vendor", () => {
  let stack: TestStack;
  let owner: Merchant;
  let other: Merchant;

  beforeAll(async () => {
    stack = await startStack();
    [owner, other] = await Promise.all([claimedMerchant(stack.db), claimedMerchant(stack.db)]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const remind = (id: string, headers: Record<string, string> = {}) =>
    stack
      .request(`/api/invoices/${id}/remind`, { method: "POST", headers })
      .then(async (response) => ({
        ...(await answer(response)),
        retryAfter: response.headers.get("retry-after"),
      }));
  /** An invoice of the owner's, to this vendor, emailed to it `hoursAgo` ago. */
  const ownersInvoice = async (vendor = "ap@globex.example", hoursAgo = 25) => {
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(owner.key),
        json: invoiceRequest({ merchant_email: owner.email, vendor_email: vendor }),
      }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as Json).invoice_id as string;
    await sql`update app.invoices set sent_at = sent_at - make_interval(hours => ${hoursAgo})
      where id = ${id}::uuid`.execute(stack.db);
    return id;
  };
  const remindersSent = async (invoiceId: string) =>
    (
      await stack.db
        .selectFrom("app.emails")
        .select("id")
        .where("invoice_id", "=", invoiceId)
        .where("kind", "=", "vendor_reminder")
        .execute()
    ).length;

  test("anonymous and another merchant's key are refused, and nothing is emailed", async () => {
    const id = await ownersInvoice();
    expect((await remind(id)).status).toBe(401);
    const foreign = await remind(id, bearer(other.key));
    // Someone else's invoice is the 404 of an unknown one: its existence is not confirmed.
    expect(foreign.status).toBe(404);
    expect(await remindersSent(id)).toBe(0);
  });

  test("twenty concurrent calls by the owner send exactly one reminder; the rest are 429 with Retry-After", async () => {
    const id = await ownersInvoice("ap@concurrent.example");
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => remind(id, bearer(owner.key))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(19);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(codeOf(refused.body)).toBe("rate_limited");
      // Until the day is over: a client retrying at once gets nothing more out.
      expect(Number(refused.retryAfter)).toBeGreaterThan(23 * 3600);
    }
    expect(await remindersSent(id)).toBe(1);
  });

  test("one customer's many invoices, reminded concurrently: one email a day in all", async () => {
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => ownersInvoice("ap@many-invoices.example")),
    );
    const answers = await Promise.all(ids.map((id) => remind(id, bearer(owner.key))));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 429, 429, 429, 429]);
    const sent = await Promise.all(ids.map(remindersSent));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
  });

  test("an invoice emailed minutes ago is not reminded at once", async () => {
    const id = await ownersInvoice("ap@just-sent.example", 0);
    const refused = await remind(id, bearer(owner.key));
    expect([refused.status, codeOf(refused.body)]).toEqual([429, "rate_limited"]);
    expect(JSON.stringify(refused.body)).toContain("emailed this invoice less than 24 hours ago");
    expect(await remindersSent(id)).toBe(0);
  });
});
