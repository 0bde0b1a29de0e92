import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

const BUDGET = 3;

/**
 * Redelivery made Remit call a receiver as often as anyone asked. It now
 * needs the merchant's identity and is budgeted per API key and per client IP: a key spread over
 * many addresses, or an address with many keys, gets no more.
 */
describe("a flood of webhook redeliveries", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      env: { TRUST_PROXY: "1", RATE_LIMIT_REDELIVERIES_PER_MIN: String(BUDGET) },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const invoiceOf = async (merchant: { email: string; key: string }) =>
    (
      (await (
        await stack.request("/api/invoices", {
          method: "POST",
          json: invoiceRequest({
            merchant_email: merchant.email,
            webhook_url: "https://hooks.example.com/r",
          }),
          headers: bearer(merchant.key),
        })
      ).json()) as { invoice_id: string }
    ).invoice_id;
  const redeliver = (id: string, client: string, headers: Record<string, string> = {}) =>
    stack.request(`/api/invoices/${id}/webhooks/${randomUUID()}/redeliver`, {
      method: "POST",
      headers: { "X-Forwarded-For": client, ...headers },
    });

  test("one key from many addresses: its budget, then 429 with Retry-After", async () => {
    const merchant = await claimedMerchant(stack.db);
    const id = await invoiceOf(merchant);
    for (let i = 0; i < BUDGET; i++)
      expect((await redeliver(id, `198.51.100.${i + 1}`, bearer(merchant.key))).status).toBe(404);
    const refused = await redeliver(id, "198.51.100.99", bearer(merchant.key));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("one address with many keys: its budget, then 429", async () => {
    const client = "203.0.113.77";
    for (let i = 0; i < BUDGET; i++) {
      const merchant = await claimedMerchant(stack.db);
      expect(
        (await redeliver(await invoiceOf(merchant), client, bearer(merchant.key))).status,
      ).toBe(404);
    }
    const merchant = await claimedMerchant(stack.db);
    expect((await redeliver(await invoiceOf(merchant), client, bearer(merchant.key))).status).toBe(
      429,
    );
  });
});
