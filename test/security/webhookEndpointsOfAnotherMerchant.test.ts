import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recordPaymentEvent } from "../../db/queries/paymentEvents.ts";
import { answer, bearer, claimedMerchant, codeOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * A merchant's webhook endpoints and event log are its own: another merchant's key sees a 404
 * for its endpoint and its events, as for an unknown id (no existence oracle), can change,
 * rotate, test or delete nothing, and its own catch-all endpoint is never sent the first
 * merchant's events (which carry the payer's amounts and transactions).
 */
describe("another merchant's webhook endpoints and events", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({});
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("404 on every route, nothing changed, and no event crosses to another account's endpoint", async () => {
    const owner = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const call = (method: string, path: string, key: string, json?: unknown) =>
      stack.request(path, { method, headers: bearer(key), ...(json ? { json } : {}) }).then(answer);
    const created = await call("POST", "/api/webhook-endpoints", owner.key, {
      url: "https://hooks.example.com/owner",
    });
    expect(created.status).toBe(201);
    const mine = `/api/webhook-endpoints/${created.body.id}`;
    const theirs = await call("POST", "/api/webhook-endpoints", other.key, {
      url: "https://hooks.example.com/other",
    });
    expect(theirs.status).toBe(201);

    for (const [method, path, json] of [
      ["GET", mine],
      ["PATCH", mine, { url: "https://attacker.example/steal", enabled: true }],
      ["POST", `${mine}/rotate-secret`],
      ["POST", `${mine}/test`],
      ["DELETE", mine],
    ] as const) {
      const refused = await call(method, path, other.key, json);
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(codeOf(refused.body)).toBe("not_found");
      expect(JSON.stringify(refused.body)).not.toContain("whsec_");
    }
    // The endpoint is as its owner left it; no test event was sent on the other's behalf.
    expect((await call("GET", mine, owner.key)).body).toMatchObject({
      url: "https://hooks.example.com/owner",
      enabled: true,
      previous_secret_expires_at: null,
    });
    expect((await call("GET", "/api/events", owner.key)).body.data).toEqual([]);

    // An event of the owner's invoice reaches the owner's endpoint only.
    const invoice = await call(
      "POST",
      "/api/invoices",
      owner.key,
      invoiceRequest({ merchant_email: owner.email }),
    );
    const eventId = randomUUID();
    await stack.db.transaction().execute((trx) =>
      recordPaymentEvent(trx, {
        id: eventId,
        owner: { invoiceId: invoice.body.invoice_id as string },
        type: "invoice.paid",
        status: "paid",
        paidAmount: 1n,
        txHash: null,
        paidAt: null,
        createdAt: new Date(),
        payload: JSON.stringify({ event_id: eventId, type: "invoice.paid" }),
        merchantEmail: null,
        webhookUrl: null,
      }),
    );
    const deliveries = await stack.db
      .selectFrom("app.webhook_deliveries")
      .select(["endpoint_id", "url"])
      .where("event_id", "=", eventId)
      .execute();
    expect(deliveries).toEqual([
      { endpoint_id: created.body.id, url: "https://hooks.example.com/owner" },
    ]);
    expect((await call("GET", `/api/events/${eventId}`, owner.key)).status).toBe(200);
    expect((await call("GET", `/api/events/${eventId}`, other.key)).status).toBe(404);
    expect((await call("GET", "/api/events", other.key)).body.data).toEqual([]);
  });
});
