import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MANUAL_REMINDERS_PER_HOUR } from "../../domain/reminders.ts";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * The attack: `POST /api/invoices/{id}/remind` emails the invoice's vendor; called in a loop it
 * would turn Remit into a mail cannon aimed at one address (and at the merchant's sender
 * reputation). Only the invoice's merchant may call it (a known invoice id authorises nothing),
 * and at most MANUAL_REMINDERS_PER_HOUR reminders an hour go out per invoice, however many
 * calls: counted in the database, so concurrent calls cannot slip past the cap.
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
  const ownersInvoice = async () => {
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(owner.key),
        json: invoiceRequest({ merchant_email: owner.email }),
      }),
    );
    expect(created.status).toBe(201);
    return (created.body as Json).invoice_id as string;
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

  test("twenty concurrent calls by the owner send exactly the hourly cap; the rest are 429 with Retry-After", async () => {
    const id = await ownersInvoice();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => remind(id, bearer(owner.key))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(MANUAL_REMINDERS_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - MANUAL_REMINDERS_PER_HOUR);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(codeOf(refused.body)).toBe("rate_limited");
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    expect(await remindersSent(id)).toBe(MANUAL_REMINDERS_PER_HOUR);
  });
});
