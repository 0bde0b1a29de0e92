import { type Selectable, sql } from "kysely";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import { keysetPage, type ListOrder, type ListPage, type ListResult } from "./listPage.ts";
import { merchantsOwnRow } from "./merchantsOwnRow.ts";

export type WebhookEndpointRow = Selectable<Database["app.webhook_endpoints"]>;

/** The merchant's endpoints that are not deleted, oldest first. */
export async function listWebhookEndpoints(
  db: Executor,
  merchantId: string,
): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom("app.webhook_endpoints")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("deleted_at", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** How many endpoints the merchant has, after locking its row so concurrent creations count one by one. */
export async function lockEndpointCount(db: Executor, merchantId: string): Promise<number> {
  await sql`select id from app.merchants where id = ${merchantId}::uuid for update`.execute(db);
  const row = await db
    .selectFrom("app.webhook_endpoints")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertWebhookEndpoint(
  db: Executor,
  values: { merchantId: string; url: string; events: string[] | null; sealedSecret: string },
): Promise<WebhookEndpointRow> {
  return db
    .insertInto("app.webhook_endpoints")
    .values({
      merchant_id: values.merchantId,
      url: values.url,
      events: values.events,
      secret: values.sealedSecret,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * An update of the merchant's endpoint `id` while it is not deleted, answering the changed row
 * (undefined: no such endpoint of the merchant's); the caller adds what it sets.
 */
function updateLiveEndpoint(db: Executor, merchantId: string, id: string) {
  return db
    .updateTable("app.webhook_endpoints")
    .$call(merchantsOwnRow(merchantId, id))
    .where("deleted_at", "is", null)
    .returningAll();
}

/** The merchant's endpoint `id` (not deleted); undefined for another merchant's, or a malformed id. */
export async function findWebhookEndpoint(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  return db
    .selectFrom("app.webhook_endpoints")
    .selectAll()
    .$call(merchantsOwnRow(merchantId, id))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/**
 * Changes the merchant's endpoint `id`. A new URL also applies to its deliveries still pending:
 * their next attempts go where the merchant now receives.
 */
export async function updateWebhookEndpoint(
  db: Executor,
  merchantId: string,
  id: string,
  values: Partial<Pick<WebhookEndpointRow, "url" | "events" | "enabled">>,
): Promise<WebhookEndpointRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const row = await updateLiveEndpoint(db, merchantId, id)
    .set({ ...values, updated_at: new Date() })
    .executeTakeFirst();
  if (row && values.url !== undefined)
    await db
      .updateTable("app.webhook_deliveries")
      .set({ url: values.url })
      .where("endpoint_id", "=", id)
      .where("status", "=", "pending")
      .execute();
  return row;
}

/** Deletes the merchant's endpoint `id`: nothing is sent to it any more, its pending deliveries included. */
export async function deleteWebhookEndpoint(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  return updateLiveEndpoint(db, merchantId, id)
    .set({ deleted_at: new Date(), enabled: false, updated_at: new Date() })
    .executeTakeFirst();
}

/**
 * A new secret for the merchant's endpoint `id`; the one it replaces keeps signing until
 * `previousExpiresAt` (a rotation during another's overlap drops the oldest).
 */
export async function rotateWebhookEndpointSecret(
  db: Executor,
  merchantId: string,
  id: string,
  sealedSecret: string,
  previousExpiresAt: Date,
): Promise<WebhookEndpointRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  return updateLiveEndpoint(db, merchantId, id)
    .set((eb) => ({
      previous_secret: eb.ref("secret"),
      previous_secret_expires_at: previousExpiresAt,
      secret: sealedSecret,
      updated_at: new Date(),
    }))
    .executeTakeFirst();
}

/**
 * Queues a delivery of the event `eventId` to each enabled endpoint of its merchant whose
 * `events` take its type (domain/webhookEndpoints.ts, eventMatches), in the caller's
 * transaction. Each delivery's insert trigger queues its first attempt.
 */
export async function queueEndpointDeliveries(db: Executor, eventId: string): Promise<void> {
  await sql`
    insert into app.webhook_deliveries (event_id, url, created_at, endpoint_id)
    select e.id, w.url, e.created_at, w.id
      from app.payment_events e
      join app.webhook_endpoints w on w.merchant_id = e.merchant_id
     where e.id = ${eventId}::uuid
       and e.type <> 'webhook.test'
       and w.enabled and w.deleted_at is null
       and (w.events is null or e.type = any (w.events) or split_part(e.type, '.', 1) || '.*' = any (w.events))
     order by w.created_at, w.id`.execute(db);
}

/** Records a test event of the merchant and its delivery to the endpoint alone. */
export async function insertTestEvent(
  db: Executor,
  event: {
    id: string;
    merchantId: string;
    endpointId: string;
    url: string;
    createdAt: Date;
    payload: string;
  },
): Promise<string> {
  await db
    .insertInto("app.payment_events")
    .values({
      id: event.id,
      merchant_id: event.merchantId,
      invoice_id: null,
      link_id: null,
      type: "webhook.test",
      status: "test",
      paid_amount: 0n,
      tx_hash: null,
      paid_at: null,
      payload: event.payload,
      created_at: event.createdAt,
    })
    .execute();
  const delivery = await db
    .insertInto("app.webhook_deliveries")
    .values({
      event_id: event.id,
      url: event.url,
      created_at: event.createdAt,
      endpoint_id: event.endpointId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return delivery.id;
}

/** The merchant's test events since `since` (after locking its row: concurrent tests count one by one). */
export async function lockRecentTestEvents(
  db: Executor,
  merchantId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  await sql`select id from app.merchants where id = ${merchantId}::uuid for update`.execute(db);
  const row = await db
    .selectFrom("app.payment_events")
    .select((eb) => [eb.fn.countAll<string>().as("n"), eb.fn.min("created_at").as("oldest")])
    .where("merchant_id", "=", merchantId)
    .where("type", "=", "webhook.test")
    .where("created_at", ">", since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: (row?.oldest as Date | null | undefined) ?? null };
}

export type EventLogRow = { id: string; payload: string; list_at: string };

/** Newest first: the index payment_events_merchant (merchant, created_at, id). */
const EVENT_ORDER: ListOrder = { kind: "events", moment: "created_at", id: "id", idType: "uuid" };

/** A page of the merchant's event log, newest first, only types of `types` when given. */
export async function listEvents(
  db: Executor,
  merchantId: string,
  types: readonly string[] | null,
  page: ListPage,
): Promise<ListResult<EventLogRow>> {
  let query = db
    .selectFrom("app.payment_events")
    .select(["id", "payload"])
    .where("merchant_id", "=", merchantId);
  if (types) query = query.where("type", "in", types);
  return keysetPage(query, EVENT_ORDER, page);
}

/** The merchant's event `id`; undefined for another merchant's or a malformed id. */
export async function findMerchantEvent(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<{ id: string; payload: string } | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  return db
    .selectFrom("app.payment_events")
    .select(["id", "payload"])
    .$call(merchantsOwnRow(merchantId, id))
    .executeTakeFirst();
}

export type EventDeliveryRow = {
  id: string;
  endpoint_id: string | null;
  url: string;
  status: Selectable<Database["app.webhook_deliveries"]>["status"];
  attempts: number;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  last_status_code: number | null;
  last_attempt_at: Date | null;
};

/** A column of the last attempt of the delivery `d` of the query it is in (null before one). */
const lastAttempt = <C extends "status_code" | "attempted_at">(column: C) =>
  sql<
    C extends "status_code" ? number | null : Date | null
  >`(select a.${sql.ref(column)} from app.webhook_attempts a where a.delivery_id = d.id order by a.attempt desc limit 1)`;

/** A delivery `d` as EventDeliveryRow: its own columns and its last attempt's answer. */
const DELIVERY_COLUMNS = [
  "d.id",
  "d.endpoint_id",
  "d.url",
  "d.status",
  "d.attempts",
  "d.next_attempt_at",
  "d.delivered_at",
  "d.created_at",
  lastAttempt("status_code").as("last_status_code"),
  lastAttempt("attempted_at").as("last_attempt_at"),
] as const;

/** Every delivery of an event (to endpoints and to its own webhook_url), with its last attempt's answer. */
export async function findEventDeliveries(
  db: Executor,
  eventId: string,
): Promise<EventDeliveryRow[]> {
  return db
    .selectFrom("app.webhook_deliveries as d")
    .select(DELIVERY_COLUMNS)
    .where("d.event_id", "=", eventId)
    .orderBy("d.created_at")
    .orderBy("d.id")
    .execute();
}

export type EndpointDeliveryRow = EventDeliveryRow & {
  event_id: string;
  event_type: string;
  list_at: string;
};

/** Newest first. */
const DELIVERY_ORDER: ListOrder = {
  kind: "deliveries",
  moment: "d.created_at",
  id: "d.id",
  idType: "uuid",
};

/**
 * A page of the deliveries to the merchant's endpoint `endpointId`, newest first, each with its
 * event's type and its last attempt's answer: the endpoint's delivery log.
 */
export async function listEndpointDeliveries(
  db: Executor,
  merchantId: string,
  endpointId: string,
  page: ListPage,
): Promise<ListResult<EndpointDeliveryRow>> {
  if (!UUID_PATTERN.test(endpointId)) return { rows: [], nextCursor: null };
  const query = db
    .selectFrom("app.webhook_deliveries as d")
    .innerJoin("app.payment_events as e", "e.id", "d.event_id")
    .select(DELIVERY_COLUMNS)
    .select(["d.event_id", "e.type as event_type"])
    .where("d.endpoint_id", "=", endpointId)
    .where("e.merchant_id", "=", merchantId);
  return keysetPage(query, DELIVERY_ORDER, page);
}
