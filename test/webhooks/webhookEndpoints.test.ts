import { Webhook } from "standardwebhooks";
import type { Address } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { signBody } from "../../domain/webhookSignature.ts";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { type ReceivedWebhook, startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { priced, until } from "../refunds/helpers.ts";

type Json = Record<string, unknown>;
type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
type Endpoint = Json & { id: string; secret: string; events: string[] | null };
type EventPage = {
  data: (Json & { event_id: string; type: string })[];
  next_cursor: string | null;
};

/** Whether a delivery verifies with `secret` the Standard Webhooks way (the npm package). */
const verifies = (secret: string, delivery: ReceivedWebhook): boolean => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/**
 * Webhook endpoints of a merchant account on the real stack (anvil with Circle's USDC, Ponder,
 * the worker): one secret for every event of the account, filtered by type, in the event log
 * with the event ids delivered, through a secret rotation's overlap.
 */
describe("webhook endpoints and the event log", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let paidOnly: Receiver;
  let everything: Receiver;
  let merchant: Merchant;

  beforeAll(async () => {
    await chain.snapshot();
    paidOnly = await startWebhookReceiver();
    everything = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
  });
  // Each test is a merchant of its own: its endpoints and its event log are nobody else's.
  beforeEach(async () => {
    merchant = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
    await paidOnly?.stop();
    await everything?.stop();
    await chain.revert();
  });

  const call = async (method: string, path: string, json?: unknown, key = merchant.key) =>
    answer(
      await stack.request(path, {
        method,
        headers: bearer(key),
        ...(json === undefined ? {} : { json }),
      }),
    );
  const addEndpoint = async (body: Json) => {
    const created = await call("POST", "/api/webhook-endpoints", body);
    expect(created.status).toBe(201);
    return created.body as Endpoint;
  };
  const create = async (path: string, body: Json) => {
    const created = await call("POST", path, body);
    expect(created.status).toBe(201);
    return created.body as Json & { deposit_address: Address; invoice_id: string; slug: string };
  };
  const events = async (query = "") =>
    (await call("GET", `/api/events${query}`)).body as unknown as EventPage;

  test("an endpoint for invoice.paid gets exactly that event, verifiable with its secret; the log lists every event as delivered", async () => {
    const endpoint = await addEndpoint({ url: paidOnly.url, events: ["invoice.paid"] });
    expect(endpoint).toMatchObject({ url: paidOnly.url, events: ["invoice.paid"], enabled: true });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const all = await addEndpoint({ url: everything.url });
    expect(all.events).toBeNull();
    // Never a secret again.
    const listed = await call("GET", "/api/webhook-endpoints");
    expect((listed.body.data as Json[]).map((e) => e.id)).toEqual([endpoint.id, all.id]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");

    const order = { merchant_email: merchant.email, ...priced("2.00") };
    const partly = await create("/api/invoices", invoiceRequest(order));
    const fully = await create("/api/invoices", invoiceRequest(order));
    const link = await create(
      "/api/links",
      linkRequest({ merchant_email: merchant.email, amount: "1.50" }),
    );
    await chain.payUsdc(devAccount(1), partly.deposit_address, 1_000_000n);
    await chain.payUsdc(devAccount(1), fully.deposit_address, 2_000_000n);
    await chain.payUsdc(devAccount(1), link.deposit_address, 1_500_000n);

    // Every event of the account is in its log, newest first, exactly as delivered.
    const log = await until("the three events in the log", async () => {
      const page = await events();
      return page.data.length === 3 && page;
    });
    expect(log.next_cursor).toBeNull();
    const byType = Object.fromEntries(log.data.map((e) => [e.type, e]));
    expect(Object.keys(byType).sort()).toEqual([
      "invoice.paid",
      "invoice.partial",
      "link.confirmed",
    ]);
    expect(byType["invoice.partial"]).toMatchObject({ invoice_id: partly.invoice_id });
    expect(byType["invoice.paid"]).toMatchObject({ invoice_id: fully.invoice_id, status: "paid" });
    expect(byType["link.confirmed"]).toMatchObject({ slug: link.slug });
    const times = log.data.map((e) => e.created_at as string);
    expect([...times].sort().reverse()).toEqual(times);

    // The paid-only endpoint: the invoice.paid event, signed with its secret both ways.
    const delivered = await until("the invoice.paid delivery", async () => paidOnly.received[0]);
    const paid = byType["invoice.paid"] as Json;
    expect(JSON.parse(delivered.body)).toEqual(paid);
    expect(
      new Webhook(endpoint.secret).verify(
        delivered.body,
        delivered.headers as Record<string, string>,
      ),
    ).toEqual(paid);
    expect(delivered.headers["webhook-id"]).toBe(paid.event_id);
    expect(delivered.headers["x-service-signature"]).toBe(
      signBody(delivered.body, endpoint.secret),
    );
    // The other events were never queued to it (queued with the event, in its transaction).
    for (const other of ["invoice.partial", "link.confirmed"]) {
      const detail = await call("GET", `/api/events/${(byType[other] as Json).event_id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.event).toEqual(byType[other]);
      const deliveries = detail.body.deliveries as Json[];
      expect(deliveries.map((d) => d.endpoint_id)).toEqual([all.id]);
    }
    // The endpoint without a filter: all three, each with its own event id, under its own secret.
    await until(
      "three deliveries to the catch-all endpoint",
      async () => everything.received.length === 3,
    );
    expect(everything.received.every((d) => verifies(all.secret, d))).toBe(true);
    expect(everything.received.some((d) => verifies(endpoint.secret, d))).toBe(false);
    expect(everything.received.map((d) => d.headers["webhook-id"]).sort()).toEqual(
      log.data.map((e) => e.event_id).sort(),
    );
    expect(paidOnly.received).toHaveLength(1);

    // The event's deliveries: to each endpoint, with status, attempts and last response code.
    const detail = await until("both deliveries of invoice.paid answered", async () => {
      const got = await call("GET", `/api/events/${paid.event_id}`);
      const deliveries = got.body.deliveries as Json[];
      return deliveries.every((d) => d.status === "delivered") && deliveries;
    });
    expect(detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          endpoint_id: endpoint.id,
          url: paidOnly.url,
          status: "delivered",
          attempts: 1,
          last_status_code: 200,
        }),
        expect.objectContaining({ endpoint_id: all.id, url: everything.url, status: "delivered" }),
      ]),
    );

    // Filters and keyset pages.
    expect((await events("?type=invoice.paid")).data.map((e) => e.event_id)).toEqual([
      paid.event_id,
    ]);
    const first = await events("?limit=2");
    expect(first.data).toEqual(log.data.slice(0, 2));
    const second = await events(`?limit=2&cursor=${first.next_cursor}`);
    expect(second).toEqual({ data: log.data.slice(2), next_cursor: null });
    const badType = await call("GET", "/api/events?type=invoice.nope");
    expect(badType.status).toBe(400);
    expect(JSON.stringify(badType.body)).toContain('"path":"type"');
  });

  test("a rotated secret keeps deliveries verifiable with the old one during the overlap, only the new one after; test events arrive", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await addEndpoint({ url: receiver.url, events: ["link.*"] });
      const sendTest = async () => {
        const before = receiver.received.length;
        const sent = await call("POST", `/api/webhook-endpoints/${endpoint.id}/test`);
        expect(sent.status).toBe(202);
        expect(sent.body.type).toBe("webhook.test");
        const delivery = await until("the test event", async () => receiver.received[before]);
        expect(JSON.parse(delivery.body)).toEqual({
          event_id: sent.body.event_id,
          type: "webhook.test",
          created_at: sent.body.created_at,
          endpoint_id: endpoint.id,
        });
        return delivery;
      };

      const plain = await sendTest();
      expect(verifies(endpoint.secret, plain)).toBe(true);

      const rotated = await call("POST", `/api/webhook-endpoints/${endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.secret as string;
      expect(fresh).toMatch(/^whsec_/);
      expect(fresh).not.toBe(endpoint.secret);
      const overlapEnds = Date.parse(rotated.body.previous_secret_expires_at as string);
      expect(overlapEnds - Date.now()).toBeGreaterThan(23 * 3600_000);
      expect(overlapEnds - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

      // During the overlap: both secrets verify, and X-Service-Signature carries both.
      const during = await sendTest();
      expect(verifies(fresh, during)).toBe(true);
      expect(verifies(endpoint.secret, during)).toBe(true);
      expect(during.headers["x-service-signature"]).toBe(
        `${signBody(during.body, fresh)},${signBody(during.body, endpoint.secret)}`,
      );

      // The overlap over (its stored end moved to the past): the new secret only.
      await stack.db
        .updateTable("app.webhook_endpoints")
        .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
        .where("id", "=", endpoint.id)
        .execute();
      const after = await sendTest();
      expect(verifies(fresh, after)).toBe(true);
      expect(verifies(endpoint.secret, after)).toBe(false);
      expect(after.headers["x-service-signature"]).toBe(signBody(after.body, fresh));
      const shown = await call("GET", `/api/webhook-endpoints/${endpoint.id}`);
      expect(shown.body.previous_secret_expires_at).toBeNull();

      // Test events are in the log.
      const tests = await events("?type=webhook.test");
      expect(tests.data.map((e) => e.event_id)).toEqual(
        [after, during, plain].map((d) => d.headers["webhook-id"]),
      );
    } finally {
      await receiver.stop();
    }
  });

  test("changes, deletion, and what is refused: unknown types, another merchant's endpoint or event", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await addEndpoint({ url: receiver.url, events: ["invoice.*"] });
      const path = `/api/webhook-endpoints/${endpoint.id}`;
      const unknown = await call("POST", "/api/webhook-endpoints", {
        url: receiver.url,
        events: ["invoice.paid", "invoice.payed"],
      });
      expect(unknown.status).toBe(400);
      expect(JSON.stringify(unknown.body)).toContain('"path":"events[1]"');
      const noUrl = await call("POST", "/api/webhook-endpoints", { events: ["invoice.paid"] });
      expect(noUrl.status).toBe(400);
      expect(JSON.stringify(noUrl.body)).toContain('"path":"url"');

      const changed = await call("PATCH", path, { events: ["link.confirmed"], enabled: false });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        events: ["link.confirmed"],
        enabled: false,
        url: receiver.url,
      });
      const badPatch = await call("PATCH", path, { enabled: "no" });
      expect(badPatch.status).toBe(400);

      // Another merchant sees none of it: 404, as for an id that does not exist.
      const other = await claimedMerchant(stack.db);
      for (const [method, route] of [
        ["GET", path],
        ["PATCH", path],
        ["DELETE", path],
        ["POST", `${path}/rotate-secret`],
        ["POST", `${path}/test`],
      ] as const) {
        const refused = await call(
          method,
          route,
          method === "PATCH" ? { enabled: true } : undefined,
          other.key,
        );
        expect(refused.status, `${method} ${route}`).toBe(404);
      }
      expect((await call("GET", "/api/webhook-endpoints", undefined, other.key)).body.data).toEqual(
        [],
      );
      const sent = await call("POST", `${path}/test`);
      expect(sent.status).toBe(202);
      const event = `/api/events/${sent.body.event_id}`;
      expect((await call("GET", event)).status).toBe(200);
      expect((await call("GET", event, undefined, other.key)).status).toBe(404);
      expect((await call("GET", "/api/events", undefined, other.key)).body.data).toEqual([]);
      // Unchanged by those attempts.
      expect((await call("GET", path)).body).toMatchObject({
        events: ["link.confirmed"],
        enabled: false,
      });

      const deleted = await call("DELETE", path);
      expect(deleted.status).toBe(200);
      expect((await call("GET", path)).status).toBe(404);
      expect(codeOf((await call("DELETE", path)).body)).toBe("not_found");
    } finally {
      await receiver.stop();
    }
  });
});
