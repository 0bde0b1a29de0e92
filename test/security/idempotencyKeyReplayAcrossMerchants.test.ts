import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * Idempotency keys were global (operation + key): guessing a merchant's key (the docs' own
 * example is `order-1042`) and rebuilding its body replayed its 201, webhook secret included,
 * and junk sent first under its key made its real requests fail with 409 for good. Keys are
 * now the merchant's own and last 24 hours.
 */
describe("an Idempotency-Key replayed across merchants", () => {
  let stack: TestStack;
  let acme: Merchant;
  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = async (json: unknown, key: string, headers: Record<string, string> = {}) =>
    answer(
      await stack.request("/api/invoices", {
        method: "POST",
        json,
        headers: { "Idempotency-Key": key, ...headers },
      }),
    );

  test("another caller never gets the merchant's answer or its webhook secret", async () => {
    const key = `order-${randomUUID()}`;
    const body = invoiceRequest({
      merchant_email: acme.email,
      webhook_url: "https://hooks.example.com/acme",
    });
    const original = await post(body, key, bearer(acme.key));
    expect(original.body.webhook_secret).toMatch(/^whsec_/);
    // The merchant's own retry replays it.
    expect(await post(body, key, bearer(acme.key))).toEqual(original);

    // The same body and key without the key: 401, never the replay.
    const anonymous = await post(body, key);
    expect([anonymous.status, codeOf(anonymous.body)]).toEqual([401, "authentication_required"]);
    expect(JSON.stringify(anonymous.body)).not.toContain(original.body.webhook_secret as string);

    // Another merchant with the same key: its own key, a new invoice, its own secret.
    const other = await claimedMerchant(stack.db);
    const theirs = await post({ ...body, merchant_email: other.email }, key, bearer(other.key));
    expect(theirs.status).toBe(201);
    expect(theirs.body.invoice_id).not.toBe(original.body.invoice_id);
    expect(theirs.body.webhook_secret).not.toBe(original.body.webhook_secret);
  });

  test("junk sent first under a key does not block the merchant's real request", async () => {
    const key = `order-${randomUUID()}`;
    // An open-mode stranger spends the key on a body of its own merchant.
    const junk = await post(invoiceRequest(), key);
    expect(junk.status).toBe(201);
    const real = await post(invoiceRequest({ merchant_email: acme.email }), key, bearer(acme.key));
    expect(real.status).toBe(201);
  });

  test("keys expire after 24 hours: the same key may then carry another request", async () => {
    const key = `order-${randomUUID()}`;
    const first = await post(invoiceRequest({ merchant_email: acme.email }), key, bearer(acme.key));
    const other = invoiceRequest({ merchant_email: acme.email, notes: "another order" });
    const conflict = await post(other, key, bearer(acme.key));
    expect([conflict.status, codeOf(conflict.body)]).toEqual([409, "idempotency_key_reused"]);
    await stack.db
      .updateTable("app.idempotency_keys")
      .set({ created_at: sql<Date>`now() - interval '25 hours'` })
      .where("key", "=", key)
      .execute();
    const fresh = await post(other, key, bearer(acme.key));
    expect(fresh.status).toBe(201);
    expect(fresh.body.invoice_id).not.toBe(first.body.invoice_id);
  });
});
