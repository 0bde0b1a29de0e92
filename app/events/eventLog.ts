import type { ListPage, ListResult } from "../../db/queries/listPage.ts";
import {
  type EventDeliveryRow,
  findEventDeliveries,
  findMerchantEvent,
  listEvents,
} from "../../db/queries/webhookEndpoints.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { notFound } from "../refusal.ts";
import type { Event } from "./paymentEvent.ts";

export type { EventDeliveryRow };

/**
 * An event as it was delivered: the stored JSON body, parsed, field for field. It was checked
 * against the one event schema (app/events/paymentEvent.ts) when it was recorded.
 */
export type DeliveredEvent = Event;

const parsed = (payload: string) => JSON.parse(payload) as DeliveredEvent;

/**
 * A page of the actor's merchant's event log, newest first, only the types of `types` when
 * given: GET /api/events and the dashboard's events page.
 */
export async function eventLog(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  types: readonly string[] | null,
  page: ListPage,
): Promise<ListResult<DeliveredEvent>> {
  const result = await listEvents(deps.db, ownMerchantId(actor.identity), types, page);
  return { rows: result.rows.map((row) => parsed(row.payload)), nextCursor: result.nextCursor };
}

/**
 * The actor's merchant's event `id` as delivered, and each of its deliveries (to its endpoints
 * and to the invoice's or link's own webhook_url); another merchant's, or none such, is a 404.
 */
export async function eventDetail(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  id: string,
): Promise<{ event: DeliveredEvent; deliveries: EventDeliveryRow[] }> {
  const event = await findMerchantEvent(deps.db, ownMerchantId(actor.identity), id);
  if (!event) throw notFound("event");
  return { event: parsed(event.payload), deliveries: await findEventDeliveries(deps.db, event.id) };
}
