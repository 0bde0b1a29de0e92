import type { PaymentEventType } from "./paymentState.ts";

/**
 * Webhook endpoints of a merchant account (docs/api.md, "Webhook endpoints"): which events an
 * endpoint takes, how long a rotated secret keeps signing, and how many endpoints an account
 * may have.
 */

/** Every event type a merchant's invoices and links produce, in the order docs/api.md lists them. */
export const WEBHOOK_EVENT_TYPES = [
  "invoice.paid",
  "invoice.partial",
  "invoice.excess",
  "invoice.payment_reversed",
  "invoice.unexpected_payment",
  "invoice.refunded",
  "invoice.will_be_due",
  "invoice.overdue",
  "credit_note.created",
  "link.confirmed",
  "link.partial",
  "link.excess",
  "link.payment_reversed",
  "link.refunded",
] as const satisfies readonly PaymentEventType[];

/** The type of the event POST /api/webhook-endpoints/{id}/test sends (to that endpoint only). */
export const TEST_EVENT_TYPE = "webhook.test" as const;

/** Every type the event log holds (its `type` filter). */
export const EVENT_LOG_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE] as const;

/** What an endpoint's `events` may name: a type, or every type of invoices or of links. */
export const WEBHOOK_EVENT_FILTERS = [...WEBHOOK_EVENT_TYPES, "invoice.*", "link.*"] as const;

/**
 * Whether an endpoint with `events` (null: every type) takes an event of `type`.
 *
 * @example eventMatches(["invoice.*"], "invoice.paid") // true
 */
export function eventMatches(events: readonly string[] | null, type: string): boolean {
  if (events === null) return true;
  const [kind] = type.split(".");
  return events.includes(type) || events.includes(`${kind}.*`);
}

/**
 * How long the secret before a rotation keeps signing deliveries alongside the new one, so a
 * receiver can switch secrets without refusing anything in between.
 */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Endpoints an account may have: every event is sent to each, so their number is bounded. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** Test events an account may send per hour (each is a delivery with retries of its own). */
export const TEST_EVENTS_PER_HOUR = 10;

/**
 * The secrets a delivery is signed with at `now`: the current one, then the one before a
 * rotation while its overlap lasts.
 */
export function signingSecrets(
  current: string,
  previous: { secret: string | null; expiresAt: Date | null },
  now: Date,
): string[] {
  return previous.secret && previous.expiresAt && previous.expiresAt > now
    ? [current, previous.secret]
    : [current];
}
