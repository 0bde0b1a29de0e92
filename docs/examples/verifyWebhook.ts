// How a receiver verifies a Remit webhook, in one function with no dependency but node:crypto:
// copy it. docs/examples/webhookReceiver.ts uses it; test/security/webhookReceiverForgeryAndReplay.test.ts
// checks it against forgeries, tampering and replays.
import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a delivery's signed timestamp may be from the receiver's clock (Standard Webhooks). */
export const TOLERANCE_SECONDS = 5 * 60;

export type Delivery = {
  /** The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers, as received. */
  id: string | undefined;
  timestamp: string | undefined;
  signatures: string | undefined;
  /** The raw body, exactly the bytes received: never re-serialise parsed JSON to verify it. */
  body: Buffer;
};

/**
 * Whether a delivery was signed with `secret` (the invoice's or link's `webhook_secret`) less
 * than TOLERANCE_SECONDS ago. Standard Webhooks: `webhook-signature` holds space-separated
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the base64 part of the `whsec_`
 * secret. The timestamp is inside the signature, so an old delivery cannot be replayed with a
 * fresh one; within the window, dedupe on the id (see the receiver).
 */
export function verifyWebhook(delivery: Delivery, secret: string, nowSeconds = Date.now() / 1000) {
  const { id, timestamp, signatures, body } = delivery;
  if (!id || !timestamp || !signatures) return false;
  // Digits only: the timestamp is compared as a number but signed as written.
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  return signatures.split(" ").some((candidate) => {
    if (!candidate.startsWith("v1,")) return false;
    const given = Buffer.from(candidate.slice(3), "base64");
    // Constant time: a comparison that stops at the first wrong byte tells an attacker, through
    // its timing, how much of a forged signature is right, and lets them build one byte by byte.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * The spec's `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`, keyed with the whole
 * `webhook_secret` string, compared in constant time. It signs no timestamp: a captured delivery
 * verifies forever, so a receiver relying on it alone must remember every `event_id` it handled.
 * During a webhook endpoint's secret rotation the header lists one `sha256=…` per secret,
 * comma-separated (new first): one valid is enough.
 */
export function verifyServiceSignature(body: Buffer, header: string | undefined, secret: string) {
  const expected = createHmac("sha256", secret).update(body).digest();
  return (header ?? "").split(",").some((candidate) => {
    const match = /^sha256=([0-9a-f]{64})$/.exec(candidate.trim());
    return !!match?.[1] && timingSafeEqual(Buffer.from(match[1], "hex"), expected);
  });
}
