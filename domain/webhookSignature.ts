import { createHmac } from "node:crypto";

/**
 * `X-Service-Signature` (spec §6.1): `sha256=` + hex HMAC-SHA256 of the raw body, keyed with
 * the webhook secret exactly as returned at creation (the whole `whsec_…` string).
 *
 * @example signBody('{"a":1}', "whsec_…") // "sha256=3f1c…"
 */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * The Standard Webhooks headers (standardwebhooks.com): `webhook-id`, `webhook-timestamp`
 * (Unix seconds) and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`
 * keyed with the base64-decoded part of the `whsec_` secret. The timestamp is signed, so a
 * receiver can refuse stale or replayed deliveries.
 */
export function standardWebhookHeaders(
  id: string,
  body: string,
  secret: string,
  timestamp: number,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${signature}`,
  };
}
