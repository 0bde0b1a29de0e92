import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import { recordPaymentEvent } from "../../db/queries/paymentEvents.ts";
import { type PaymentEvent, PaymentEventSchema } from "./paymentEvent.ts";

/** What the event's row holds besides its body (its id, type and moment are the body's). */
export type RecordedEventFacts = Omit<
  Parameters<typeof recordPaymentEvent>[1],
  "id" | "type" | "createdAt" | "payload"
>;

/**
 * Records an event of a merchant's invoices or links with the notifications it causes (its
 * email, webhook deliveries), in the caller's transaction. The body is checked against the one
 * PaymentEvent schema (app/events/paymentEvent.ts) before it is stored: every webhook and the
 * event log carry exactly that shape.
 */
export async function recordEvent(
  trx: Transaction<Database>,
  facts: RecordedEventFacts,
  event: PaymentEvent,
): Promise<void> {
  // Checked, then stored as built: its fields in the builder's order, as receivers have them.
  PaymentEventSchema.parse(event);
  await recordPaymentEvent(trx, {
    ...facts,
    id: event.event_id,
    type: event.type,
    createdAt: new Date(event.created_at),
    payload: JSON.stringify(event),
  });
}
