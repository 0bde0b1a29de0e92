import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf } from "../accounts/accounts.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * A leaked key is revoked on one API replica; the attacker keeps using it on another. Keys are
 * looked up in the database on every request (no cache per process), so the revocation holds
 * on the very next request, everywhere.
 */
describe("a revoked key used on a second API replica", () => {
  let stack: TestStack;
  let second: TestProcess & { url: string };
  beforeAll(async () => {
    stack = await startStack();
    second = await stack.startApi();
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  test("fails on its next request, on both replicas", async () => {
    const merchant = await claimedMerchant(stack.db);
    const made = await answer(
      await stack.request("/api/keys", {
        method: "POST",
        json: { name: "leaked" },
        headers: bearer(merchant.key),
      }),
    );
    const leaked = made.body.key as string;
    const onSecond = (path: string, init: RequestInit = {}) =>
      fetch(`${second.url}${path}`, {
        ...init,
        headers: { "content-type": "application/json", ...bearer(leaked) },
      });
    const create = () =>
      onSecond("/api/invoices", {
        method: "POST",
        body: JSON.stringify(invoiceRequest({ merchant_email: merchant.email })),
      });
    // The second replica has served the key already (warm, were there a cache to warm).
    expect((await onSecond("/api/keys")).status).toBe(200);
    expect((await create()).status).toBe(201);

    const revoked = await stack.request(`/api/keys/${made.body.id}`, {
      method: "DELETE",
      headers: bearer(merchant.key),
    });
    expect(revoked.status).toBe(200);

    const refused = await answer(await create());
    expect([refused.status, codeOf(refused.body)]).toEqual([401, "invalid_api_key"]);
    expect((await onSecond("/api/keys")).status).toBe(401);
    expect((await stack.request("/api/keys", { headers: bearer(leaked) })).status).toBe(401);
    // The merchant's other key still works on both.
    for (const url of [stack.api.url, second.url])
      expect((await fetch(`${url}/api/keys`, { headers: bearer(merchant.key) })).status).toBe(200);
  });
});
