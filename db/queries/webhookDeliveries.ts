import type { Selectable } from "kysely";
import type { Database, Executor } from "../database.ts";

export type DeliveryRow = Selectable<Database["app.webhook_deliveries"]>;

/** A delivery with what an attempt needs: its event's body and the owner's sealed secret. */
export type DeliveryToAttempt = Pick<
  DeliveryRow,
  "id" | "url" | "status" | "attempts" | "created_at"
> & {
  event_id: string;
  payload: string;
  webhook_secret: string | null;
};

/** The delivery with this id, joined to its event and to the invoice's or link's secret. */
export async function findDeliveryToAttempt(
  db: Executor,
  deliveryId: string,
): Promise<DeliveryToAttempt | undefined> {
  return db
    .selectFrom("app.webhook_deliveries as d")
    .innerJoin("app.payment_events as e", "e.id", "d.event_id")
    .leftJoin("app.invoices as i", "i.id", "e.invoice_id")
    .leftJoin("app.payment_links as l", "l.id", "e.link_id")
    .select([
      "d.id",
      "d.url",
      "d.status",
      "d.attempts",
      "d.created_at",
      "e.id as event_id",
      "e.payload",
      (eb) => eb.fn.coalesce("i.webhook_secret", "l.webhook_secret").as("webhook_secret"),
    ])
    .where("d.id", "=", deliveryId)
    .executeTakeFirst();
}

/** A delivery after an attempt: how many were made, where it stands, when to try next. */
export async function updateWebhookDelivery(
  db: Executor,
  deliveryId: string,
  values: Pick<DeliveryRow, "attempts" | "status" | "delivered_at" | "next_attempt_at">,
): Promise<void> {
  await db.updateTable("app.webhook_deliveries").set(values).where("id", "=", deliveryId).execute();
}

/**
 * A new delivery of an event to `url` (a redelivery). Its insert trigger (migration 0003) queues
 * the first attempt in the same transaction, with retries of its own.
 */
export async function insertWebhookDelivery(
  db: Executor,
  eventId: string,
  url: string,
): Promise<DeliveryRow> {
  return db
    .insertInto("app.webhook_deliveries")
    .values({ event_id: eventId, url })
    .returningAll()
    .executeTakeFirstOrThrow();
}
