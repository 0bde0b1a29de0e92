import type { Selectable } from "kysely";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import type { PaymentEventRow } from "./paymentEvents.ts";
import type { DeliveryRow } from "./webhookDeliveries.ts";

export type WebhookAttemptRow = Selectable<Database["app.webhook_attempts"]>;

/** An invoice's payment events and, for the merchant to inspect, what became of their webhooks. */
export type WebhookHistory = {
  /** Oldest first. */
  events: PaymentEventRow[];
  /** Every delivery of those events, oldest first. */
  deliveries: DeliveryRow[];
  /** Every attempt of those deliveries, in attempt order. */
  attempts: WebhookAttemptRow[];
};

/** Every payment event of the invoice, with every delivery of each and every attempt of those. */
export async function findWebhookHistory(db: Executor, invoiceId: string): Promise<WebhookHistory> {
  const eventIds = db
    .selectFrom("app.payment_events")
    .select("id")
    .where("invoice_id", "=", invoiceId);
  // The invoice's own webhook_url's deliveries; those to the merchant's endpoints are in GET /api/events/{id}.
  const deliveryIds = db
    .selectFrom("app.webhook_deliveries")
    .select("id")
    .where("event_id", "in", eventIds)
    .where("endpoint_id", "is", null);
  const [events, deliveries, attempts] = await Promise.all([
    db
      .selectFrom("app.payment_events")
      .selectAll()
      .where("invoice_id", "=", invoiceId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("app.webhook_deliveries")
      .selectAll()
      .where("event_id", "in", eventIds)
      .where("endpoint_id", "is", null)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("app.webhook_attempts")
      .selectAll()
      .where("delivery_id", "in", deliveryIds)
      .orderBy("attempt")
      .execute(),
  ]);
  return { events, deliveries, attempts };
}

/** The id of the invoice's payment event `eventId`, or undefined (also for ids that are not UUIDs). */
export async function findInvoiceEventId(
  db: Executor,
  invoiceId: string,
  eventId: string,
): Promise<string | undefined> {
  if (!UUID_PATTERN.test(eventId)) return undefined;
  const row = await db
    .selectFrom("app.payment_events")
    .select("id")
    .where("id", "=", eventId)
    .where("invoice_id", "=", invoiceId)
    .executeTakeFirst();
  return row?.id;
}
