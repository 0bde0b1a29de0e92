import { randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, expectTypeOf, test } from "vitest";
import type { Event as RecordedEvent } from "../../../app/events/paymentEvent.ts";
import { signatureHeaders } from "../../../domain/webhookSignature.ts";
import { type Event, verifyWebhook, WebhookVerificationError } from "../src/index.ts";

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
const now = () => Math.floor(Date.now() / 1000);

/** A body as Remit delivers it: the event's JSON, not reformatted. */
const eventBody = () =>
  JSON.stringify({
    event_id: randomUUID(),
    type: "invoice.paid",
    invoice_id: randomUUID(),
    status: "paid",
    paid_amount: "150.00",
    created_at: new Date().toISOString(),
  });

/** What the worker sends: the service's own signing code, one secret or several (a rotation). */
const delivered = (body: string, secrets: [string, ...string[]], timestamp = now()) =>
  signatureHeaders(JSON.parse(body).event_id, body, secrets, timestamp);

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as Error).message;
  }
  throw new Error("verified, but should have been refused");
};

describe("verifyWebhook: the event, typed", () => {
  test("returns the one event schema's type: its `type` narrows to that event's fields", () => {
    const secret = newSecret();
    // Built as the service builds it (app/events/paymentEvent.ts types every recorded event).
    const sent: RecordedEvent = {
      event_id: randomUUID(),
      type: "invoice.paid",
      created_at: new Date().toISOString(),
      invoice_id: randomUUID(),
      invoice_number: "INV-0042",
      status: "paid",
      tx_hash: `0x${"ab".repeat(32)}`,
      paid_amount: "150.00",
      paid_at: new Date().toISOString(),
      total_amount: "150.00",
      amount_due: "0.00",
    };
    // What the service records is what the client's type says it receives.
    const received: Event = sent;
    const body = JSON.stringify(received);
    const event = verifyWebhook(body, delivered(body, [secret]), secret);
    expectTypeOf(event).toEqualTypeOf<Event>();
    expect(event).toEqual(sent);
    if (event.type !== "invoice.paid") throw new Error(`not invoice.paid: ${event.type}`);
    expectTypeOf(event.invoice_number).toEqualTypeOf<string>();
    expectTypeOf(event.tx_hash).toEqualTypeOf<string | null>();
    expect(event.invoice_number).toBe("INV-0042");
  });

  test("a link's event has its slug and metadata", () => {
    const secret = newSecret();
    const body = JSON.stringify({
      event_id: randomUUID(),
      type: "link.confirmed",
      created_at: new Date().toISOString(),
      slug: "pay-acme",
      status: "confirmed",
      tx_hash: null,
      amount_usdc: "10.00",
      confirmed_at: null,
      amount: "10.00",
      amount_due: "0.00",
      metadata: { order_id: "1042" },
    });
    const event = verifyWebhook(body, delivered(body, [secret]), secret);
    if (event.type === "link.confirmed") {
      expectTypeOf(event.metadata).toEqualTypeOf<{
        [key: string]: string | number | boolean | null;
      }>();
      expect(event.metadata.order_id).toBe("1042");
    } else throw new Error("not link.confirmed");
  });
});

describe("verifyWebhook: Standard Webhooks (the default)", () => {
  test("verifies the service's own delivery and returns its event", () => {
    const secret = newSecret();
    const body = eventBody();
    expect(verifyWebhook(body, delivered(body, [secret]), secret)).toEqual(JSON.parse(body));
    // Bytes, node:http's lower-case headers and a fetch Headers all work.
    const lower = Object.fromEntries(
      Object.entries(delivered(body, [secret])).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(verifyWebhook(Buffer.from(body), lower, secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(body, new Headers(delivered(body, [secret])), secret).type).toBe(
      "invoice.paid",
    );
  });

  test("verifies what the standardwebhooks package signs, and the package verifies what the service signs", () => {
    const secret = newSecret();
    const body = eventBody();
    const id = JSON.parse(body).event_id as string;
    const at = new Date();
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, at, body),
    };
    expect(verifyWebhook(body, headers, secret)).toEqual(JSON.parse(body));
    expect(new Webhook(secret).verify(body, delivered(body, [secret]))).toEqual(JSON.parse(body));
  });

  test("during a rotation the delivery carries two signatures: either secret verifies it", () => {
    const [fresh, old] = [newSecret(), newSecret()];
    const body = eventBody();
    const headers = delivered(body, [fresh, old]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyWebhook(body, headers, fresh).event_id).toBe(JSON.parse(body).event_id);
    expect(verifyWebhook(body, headers, old).event_id).toBe(JSON.parse(body).event_id);
    // A receiver holding both while it switches.
    expect(verifyWebhook(body, headers, [old, fresh]).type).toBe("invoice.paid");
    // After the overlap the old secret no longer verifies.
    expect(refusal(() => verifyWebhook(body, delivered(body, [fresh]), old))).toMatch(
      /no webhook-signature matches/,
    );
  });

  test("refuses a tampered body, a wrong secret, a forged or missing signature", () => {
    const secret = newSecret();
    const body = eventBody();
    const headers = delivered(body, [secret]);
    const tampered = body.replace('"150.00"', '"15000.00"');
    expect(tampered).not.toBe(body);
    expect(refusal(() => verifyWebhook(tampered, headers, secret))).toMatch(/no webhook-signature/);
    // JSON parsed and serialised again is other bytes.
    const reformatted = JSON.stringify(JSON.parse(body), null, 2);
    expect(refusal(() => verifyWebhook(reformatted, headers, secret))).toMatch(/no webhook/);
    expect(refusal(() => verifyWebhook(body, headers, newSecret()))).toMatch(/no webhook/);
    // Another id under the same signature: the id is signed.
    expect(
      refusal(() => verifyWebhook(body, { ...headers, "webhook-id": randomUUID() }, secret)),
    ).toMatch(/no webhook/);
    const forged = `v1,${randomBytes(32).toString("base64")}`;
    expect(
      refusal(() => verifyWebhook(body, { ...headers, "webhook-signature": forged }, secret)),
    ).toMatch(/no webhook/);
    const { "webhook-signature": _, ...unsigned } = headers;
    expect(refusal(() => verifyWebhook(body, unsigned, secret))).toMatch(/missing/);
    // Only the spec's header: not enough by default (it signs no timestamp).
    expect(
      refusal(() =>
        verifyWebhook(body, { "X-Service-Signature": headers["X-Service-Signature"] }, secret),
      ),
    ).toMatch(/missing webhook-id/);
  });

  test("refuses a delivery signed too long ago or ahead, within the tolerance asked", () => {
    const secret = newSecret();
    const body = eventBody();
    const old = delivered(body, [secret], now() - 301);
    expect(refusal(() => verifyWebhook(body, old, secret))).toMatch(/more than 300 s/);
    expect(
      refusal(() => verifyWebhook(body, delivered(body, [secret], now() + 301), secret)),
    ).toMatch(/stale or replayed/);
    // A wider tolerance accepts it; a narrower one refuses what the default takes.
    expect(verifyWebhook(body, old, secret, { toleranceSeconds: 600 }).type).toBe("invoice.paid");
    const recent = delivered(body, [secret], now() - 120);
    expect(verifyWebhook(body, recent, secret).type).toBe("invoice.paid");
    expect(refusal(() => verifyWebhook(body, recent, secret, { toleranceSeconds: 60 }))).toMatch(
      /more than 60 s/,
    );
    // The timestamp is signed: a fresh one on an old delivery breaks the signature.
    const replayed = { ...old, "webhook-timestamp": String(now()) };
    expect(refusal(() => verifyWebhook(body, replayed, secret))).toMatch(/no webhook-signature/);
    expect(
      refusal(() => verifyWebhook(body, { ...old, "webhook-timestamp": "1e9" }, secret)),
    ).toMatch(/not Unix seconds/);
  });
});

describe("verifyWebhook: the spec's X-Service-Signature", () => {
  const service = { scheme: "x-service-signature" } as const;

  test("verifies the service's header alone, and either value during a rotation", () => {
    const [fresh, old] = [newSecret(), newSecret()];
    const body = eventBody();
    const single = { "X-Service-Signature": delivered(body, [old])["X-Service-Signature"] };
    expect(verifyWebhook(body, single, old, service)).toEqual(JSON.parse(body));
    const rotating = delivered(body, [fresh, old])["X-Service-Signature"];
    expect(rotating.split(",")).toHaveLength(2);
    for (const secret of [fresh, old])
      expect(verifyWebhook(body, { "x-service-signature": rotating }, secret, service).type).toBe(
        "invoice.paid",
      );
  });

  test("refuses a tampered body, a wrong secret, a malformed or missing header", () => {
    const secret = newSecret();
    const body = eventBody();
    const headers = delivered(body, [secret]);
    const tampered = body.replace('"paid"', '"excess"');
    expect(refusal(() => verifyWebhook(tampered, headers, secret, service))).toMatch(
      /no X-Service-Signature matches/,
    );
    expect(refusal(() => verifyWebhook(body, headers, newSecret(), service))).toMatch(/no X-/);
    const upper = headers["X-Service-Signature"].toUpperCase();
    expect(
      refusal(() => verifyWebhook(body, { "X-Service-Signature": upper }, secret, service)),
    ).toMatch(/no X-/);
    const { "X-Service-Signature": _, ...standardOnly } = headers;
    expect(refusal(() => verifyWebhook(body, standardOnly, secret, service))).toMatch(/missing/);
  });
});
