import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "./errors.js";
import type { Event } from "./types.js";

/** Headers as node:http gives them, as a fetch Headers, or as a plain record. */
export type WebhookHeaders =
  | Headers
  | Record<string, string | string[] | undefined>
  | Iterable<[string, string]>;

export type VerifyWebhookOptions = {
  /**
   * How far `webhook-timestamp` may be from this clock, either way (default 300 s). It is inside
   * the signature, so a captured delivery cannot be replayed later with a fresh one.
   */
  toleranceSeconds?: number;
  /**
   * Which signature to check. `standard-webhooks` (the default): `webhook-id`,
   * `webhook-timestamp` and `webhook-signature`, timestamped. `x-service-signature`: the spec's
   * `X-Service-Signature: sha256=<hex>` header, for receivers behind something that drops the
   * others; it signs no timestamp, so a captured delivery verifies forever: dedupe on
   * `event_id`. Every Remit delivery carries both.
   */
  scheme?: "standard-webhooks" | "x-service-signature";
  /** The clock, in Unix seconds (tests). */
  now?: number;
};

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === "function")
    return (headers as Headers).get(name) ?? undefined;
  const entries: Iterable<[string, unknown]> =
    Symbol.iterator in headers
      ? (headers as Iterable<[string, string]>)
      : Object.entries(headers as Record<string, unknown>);
  for (const [key, value] of entries)
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(",") : String(value);
  return undefined;
};

const bytesOf = (body: string | Uint8Array) =>
  typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);

/** Constant time: a comparison that stops at the first wrong byte tells a forger how much is right. */
const same = (given: Buffer, expected: Buffer) =>
  given.length === expected.length && timingSafeEqual(given, expected);

function verifyStandard(
  body: Buffer,
  headers: WebhookHeaders,
  secrets: string[],
  toleranceSeconds: number,
  now: number,
): void {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      "missing webhook-id, webhook-timestamp or webhook-signature header",
    );
  // Digits only: compared as a number, but signed exactly as written.
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError("webhook-timestamp is not Unix seconds");
  if (Math.abs(now - Number(timestamp)) > toleranceSeconds)
    throw new WebhookVerificationError(
      `webhook-timestamp is more than ${toleranceSeconds} s from this clock (stale or replayed)`,
    );
  // Several during a secret rotation, space-separated: one valid is enough.
  const given = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s.slice(3), "base64"));
  for (const secret of secrets) {
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
    if (given.some((signature) => same(signature, expected))) return;
  }
  throw new WebhookVerificationError("no webhook-signature matches the secret");
}

function verifyServiceSignature(body: Buffer, headers: WebhookHeaders, secrets: string[]): void {
  const value = header(headers, "x-service-signature");
  if (!value) throw new WebhookVerificationError("missing X-Service-Signature header");
  // One `sha256=<hex>` per secret during a rotation, comma-separated: one valid is enough.
  const given = value
    .split(",")
    .map((candidate) => /^sha256=([0-9a-f]{64})$/.exec(candidate.trim())?.[1])
    .filter((hex): hex is string => hex !== undefined)
    .map((hex) => Buffer.from(hex, "hex"));
  for (const secret of secrets) {
    // Keyed with the whole `whsec_…` string, as returned at creation.
    const expected = createHmac("sha256", secret).update(body).digest();
    if (given.some((signature) => same(signature, expected))) return;
  }
  throw new WebhookVerificationError("no X-Service-Signature matches the secret");
}

/**
 * Verifies a Remit webhook delivery and returns its event, or throws WebhookVerificationError.
 *
 * `rawBody` is the body exactly as received (bytes, or their UTF-8 text): JSON parsed and
 * serialised again no longer matches. `secret` is the endpoint's `whsec_…` secret (or the
 * invoice's or link's `webhook_secret`); pass several during your own switch to a rotated one.
 * Delivery is at least once: dedupe on the returned `event_id` (= `webhook-id`).
 *
 * @example
 * const event = verifyWebhook(rawBody, request.headers, process.env.REMIT_WEBHOOK_SECRET!);
 * if (event.type === "invoice.paid") markPaid(event.invoice_id);
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Event {
  const secrets = (typeof secret === "string" ? [secret] : [...secret]).filter(Boolean);
  if (secrets.length === 0) throw new TypeError("verifyWebhook needs the endpoint's secret");
  const body = bytesOf(rawBody);
  const scheme = options.scheme ?? "standard-webhooks";
  if (scheme === "x-service-signature") verifyServiceSignature(body, headers, secrets);
  else
    verifyStandard(
      body,
      headers,
      secrets,
      options.toleranceSeconds ?? 300,
      options.now ?? Date.now() / 1000,
    );
  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("the signed body is not JSON");
  }
  if (event === null || typeof event !== "object" || typeof (event as Event).type !== "string")
    throw new WebhookVerificationError("the signed body is not an event");
  return event as Event;
}
