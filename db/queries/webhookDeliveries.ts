import { type Selectable, sql } from "kysely";
import type { Database, Executor } from "../database.ts";

export type DeliveryRow = Selectable<Database["app.webhook_deliveries"]>;

/**
 * A delivery with what an attempt needs: its event's body and the sealed secret(s) it is signed
 * with: the invoice's or link's own, or (`endpoint_id` set) the endpoint's, with the one before
 * its last rotation and when that stops signing.
 */
export type DeliveryToAttempt = Pick<
  DeliveryRow,
  "id" | "url" | "status" | "attempts" | "created_at" | "endpoint_id"
> & {
  event_id: string;
  payload: string;
  webhook_secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** The endpoint was deleted: nothing more is sent to it. */
  endpoint_deleted: boolean;
  /** The event's merchant (null: an unclaimed link's), whose share of the slots it takes. */
  merchant_id: string | null;
};

/** The delivery with this id, joined to its event and to its endpoint's or owner's secret. */
export async function findDeliveryToAttempt(
  db: Executor,
  deliveryId: string,
): Promise<DeliveryToAttempt | undefined> {
  return db
    .selectFrom("app.webhook_deliveries as d")
    .innerJoin("app.payment_events as e", "e.id", "d.event_id")
    .leftJoin("app.invoices as i", "i.id", "e.invoice_id")
    .leftJoin("app.payment_links as l", "l.id", "e.link_id")
    .leftJoin("app.webhook_endpoints as w", "w.id", "d.endpoint_id")
    .select([
      "d.id",
      "d.url",
      "d.status",
      "d.attempts",
      "d.created_at",
      "d.endpoint_id",
      "e.id as event_id",
      "e.payload",
      (eb) =>
        eb
          .case()
          .when("d.endpoint_id", "is not", null)
          .then(eb.ref("w.secret"))
          .else(eb.fn.coalesce("i.webhook_secret", "l.webhook_secret"))
          .end()
          .as("webhook_secret"),
      "w.previous_secret",
      "w.previous_secret_expires_at",
      sql<boolean>`w.deleted_at is not null`.as("endpoint_deleted"),
      "e.merchant_id",
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

/** What the redelivery limits look at, for one event of an invoice. */
export type RedeliveryBudget = {
  /** A redelivery of this event that is queued and not yet attempted (or being attempted). */
  queuedDeliveryId: string | null;
  /** Redeliveries (every delivery of an event but its first) of the invoice's events since `since`. */
  recent: number;
  /** When the oldest of those was queued. */
  oldestRecentAt: Date | null;
};

/**
 * Reads the redelivery budget of an invoice's event, after locking the event's row, so that
 * concurrent redeliveries of one event (from any API replica) are judged one after another:
 * call it in the transaction that inserts the redelivery.
 */
export async function lockRedeliveryBudget(
  trx: Executor,
  invoiceId: string,
  eventId: string,
  since: Date,
): Promise<RedeliveryBudget> {
  await sql`select id from app.payment_events where id = ${eventId}::uuid for update`.execute(trx);
  const { rows } = await sql<{
    queued: string | null;
    recent: string;
    oldest: Date | null;
  }>`
    with deliveries as (
      select d.id, d.event_id, d.status, d.attempts, d.created_at,
             row_number() over (partition by d.event_id order by d.created_at, d.id) as n
        from app.webhook_deliveries d
        join app.payment_events e on e.id = d.event_id
       -- The invoice's own webhook_url's: deliveries to the merchant's endpoints are no redeliveries.
       where e.invoice_id = ${invoiceId}::uuid and d.endpoint_id is null
    )
    select
      (select id::text from deliveries
        where n > 1 and event_id = ${eventId}::uuid and status = 'pending' and attempts = 0 limit 1) as queued,
      (select count(*) from deliveries where n > 1 and created_at > ${since}) as recent,
      (select min(created_at) from deliveries where n > 1 and created_at > ${since}) as oldest`.execute(
    trx,
  );
  const row = rows[0];
  return {
    queuedDeliveryId: row?.queued ?? null,
    recent: Number(row?.recent ?? 0),
    oldestRecentAt: row?.oldest ?? null,
  };
}
