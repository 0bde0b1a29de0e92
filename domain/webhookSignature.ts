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

/**
 * Every signature header of a delivery signed with each of `secrets` (the current one first):
 * `X-Service-Signature` holds one `sha256=…` per secret, comma-separated, and
 * `webhook-signature` one `v1,…` per secret, space-separated, as Standard Webhooks defines for
 * rotation. With one secret (an invoice's or a link's own, or an endpoint outside a rotation's
 * overlap) both are exactly the single-secret headers.
 */
export function signatureHeaders(
  id: string,
  body: string,
  secrets: readonly [string, ...string[]],
  timestamp: number,
): Record<
  "X-Service-Signature" | "webhook-id" | "webhook-timestamp" | "webhook-signature",
  string
> {
  const standard = secrets.map((secret) => standardWebhookHeaders(id, body, secret, timestamp));
  const first = standard[0] as ReturnType<typeof standardWebhookHeaders>;
  return {
    "X-Service-Signature": secrets.map((secret) => signBody(body, secret)).join(","),
    ...first,
    "webhook-signature": standard.map((h) => h["webhook-signature"]).join(" "),
  };
}
