import { describe, expect, test } from "vitest";
import { eventMatches, signingSecrets } from "./webhookEndpoints.ts";

describe("webhook endpoints", () => {
  test("an endpoint takes the types it names, its wildcards, or every type when it names none", () => {
    expect(eventMatches(null, "link.confirmed")).toBe(true);
    expect(eventMatches(["invoice.paid"], "invoice.paid")).toBe(true);
    expect(eventMatches(["invoice.paid"], "invoice.partial")).toBe(false);
    expect(eventMatches(["invoice.*"], "invoice.refunded")).toBe(true);
    expect(eventMatches(["invoice.*"], "link.confirmed")).toBe(false);
    expect(eventMatches([], "invoice.paid")).toBe(false);
  });

  test("a rotated secret signs alongside the new one until its overlap ends", () => {
    const now = new Date("2026-11-01T12:00:00Z");
    const later = new Date("2026-11-01T12:00:01Z");
    expect(signingSecrets("new", { secret: "old", expiresAt: later }, now)).toEqual(["new", "old"]);
    expect(signingSecrets("new", { secret: "old", expiresAt: now }, now)).toEqual(["new"]);
    expect(signingSecrets("new", { secret: null, expiresAt: null }, now)).toEqual(["new"]);
  });
});

describe("signatures during a rotation's overlap", () => {
  test("a Standard Webhooks receiver verifies with either secret, and each sha256= is one secret's", async () => {
    const { Webhook } = await import("standardwebhooks");
    const { signatureHeaders, signBody } = await import("./webhookSignature.ts");
    const fresh = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
    const old = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;
    const other = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
    const body = '{"type":"invoice.paid"}';
    const headers = signatureHeaders("evt_1", body, [fresh, old], Math.floor(Date.now() / 1000));
    expect(() => new Webhook(fresh).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(headers["X-Service-Signature"]).toBe(`${signBody(body, fresh)},${signBody(body, old)}`);
    const single = signatureHeaders("evt_1", body, [fresh], 1);
    expect(single["X-Service-Signature"]).toBe(signBody(body, fresh));
    expect(single["webhook-signature"]).not.toContain(" ");
  });
});
