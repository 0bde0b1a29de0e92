import { recordAudit } from "../../db/queries/audit.ts";
import type { ListPage, ListResult } from "../../db/queries/listPage.ts";
import {
  deleteWebhookEndpoint,
  type EndpointDeliveryRow,
  findWebhookEndpoint,
  insertTestEvent,
  insertWebhookEndpoint,
  listEndpointDeliveries,
  listWebhookEndpoints,
  lockEndpointCount,
  lockRecentTestEvents,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
  type WebhookEndpointRow,
} from "../../db/queries/webhookEndpoints.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { newWebhookSecret } from "../../domain/tokens.ts";
import {
  MAX_WEBHOOK_ENDPOINTS,
  SECRET_ROTATION_OVERLAP_MS,
  TEST_EVENT_TYPE,
  TEST_EVENTS_PER_HOUR,
} from "../../domain/webhookEndpoints.ts";
import { type Actor, type MerchantActor, merchantAudit } from "../actor.ts";
import { assertWebhookUrlAllowed } from "../assertWebhookUrlAllowed.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { EndpointTestEventSchema } from "../events/paymentEvent.ts";
import { notFound, Refusal, RetryLaterError } from "../refusal.ts";

export type { EndpointDeliveryRow, WebhookEndpointRow };

/**
 * A merchant's webhook endpoints, whichever way it comes (its key on /api/webhook-endpoints, its
 * session on the dashboard's webhooks pages): the same checks, the same audit log.
 */

const HOUR_MS = 60 * 60 * 1000;

/** `events` as stored: each type once, in the order given; null for every type. */
const storedEvents = (events: readonly string[] | null | undefined): string[] | null =>
  events ? [...new Set(events)] : null;

/** The actor's merchant's endpoints (not deleted), oldest first. */
export const ownWebhookEndpoints = (
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
): Promise<WebhookEndpointRow[]> => listWebhookEndpoints(deps.db, ownMerchantId(actor.identity));

/** The actor's merchant's endpoint `id`; another merchant's, or no such one, is a 404. */
export async function ownWebhookEndpoint(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  id: string,
): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(deps.db, ownMerchantId(actor.identity), id);
  if (!row) throw notFound("webhook endpoint");
  return row;
}

/** A page of the deliveries to the actor's merchant's endpoint `id`, newest first (404 as ownWebhookEndpoint). */
export async function endpointDeliveryLog(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  id: string,
  page: ListPage,
): Promise<{ endpoint: WebhookEndpointRow } & ListResult<EndpointDeliveryRow>> {
  const endpoint = await ownWebhookEndpoint(deps, actor, id);
  const log = await listEndpointDeliveries(deps.db, endpoint.merchant_id, endpoint.id, page);
  return { endpoint, ...log };
}

/**
 * A new endpoint of the actor's merchant, with its secret (returned this once). Its URL follows
 * the rules of an invoice's `webhook_url` (a 400 on `url`).
 */
export async function createWebhookEndpoint(
  deps: Pick<CoreDeps, "db" | "webhookKeys" | "log" | "allowPrivateWebhooks">,
  actor: MerchantActor,
  input: { url: string; events?: readonly string[] | null | undefined },
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  assertWebhookUrlAllowed(deps, input.url, "url");
  const secret = newWebhookSecret();
  const row = await deps.db.transaction().execute(async (trx) => {
    if ((await lockEndpointCount(trx, actor.identity.merchantId)) >= MAX_WEBHOOK_ENDPOINTS)
      throw new Refusal(
        "conflict",
        "endpoint_limit_reached",
        `an account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: delete one first`,
      );
    const created = await insertWebhookEndpoint(trx, {
      merchantId: actor.identity.merchantId,
      url: input.url,
      events: storedEvents(input.events),
      sealedSecret: sealSecret(secret, deps.webhookKeys),
    });
    await recordAudit(trx, merchantAudit(actor, "webhook_endpoint.created", created.id));
    return created;
  });
  deps.log.info("webhook endpoint created", { endpoint_id: row.id });
  return { row, secret };
}

/** Changes the actor's merchant's endpoint `id` (a new URL checked first; 404 when it has none such). */
export async function changeWebhookEndpoint(
  deps: Pick<CoreDeps, "db" | "allowPrivateWebhooks">,
  actor: MerchantActor,
  id: string,
  input: {
    url?: string | undefined;
    events?: readonly string[] | null | undefined;
    enabled?: boolean | undefined;
  },
): Promise<WebhookEndpointRow> {
  assertWebhookUrlAllowed(deps, input.url, "url");
  const row = await deps.db.transaction().execute(async (trx) => {
    const updated = await updateWebhookEndpoint(trx, actor.identity.merchantId, id, {
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.events === undefined ? {} : { events: storedEvents(input.events) }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    });
    if (updated) await recordAudit(trx, merchantAudit(actor, "webhook_endpoint.updated", id));
    return updated;
  });
  if (!row) throw notFound("webhook endpoint");
  return row;
}

/** Deletes the actor's merchant's endpoint `id` (404 when it has none such). */
export async function removeWebhookEndpoint(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  id: string,
): Promise<WebhookEndpointRow> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const deleted = await deleteWebhookEndpoint(trx, actor.identity.merchantId, id);
    if (deleted) await recordAudit(trx, merchantAudit(actor, "webhook_endpoint.deleted", id));
    return deleted;
  });
  if (!row) throw notFound("webhook endpoint");
  return row;
}

/** A new secret for the endpoint; the one before keeps signing for SECRET_ROTATION_OVERLAP_MS. */
export async function rotateSecret(
  deps: Pick<CoreDeps, "db" | "webhookKeys">,
  actor: MerchantActor,
  id: string,
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const secret = newWebhookSecret();
  const row = await deps.db.transaction().execute(async (trx) => {
    const rotated = await rotateWebhookEndpointSecret(
      trx,
      actor.identity.merchantId,
      id,
      sealSecret(secret, deps.webhookKeys),
      new Date(Date.now() + SECRET_ROTATION_OVERLAP_MS),
    );
    if (rotated)
      await recordAudit(trx, merchantAudit(actor, "webhook_endpoint.secret_rotated", id));
    return rotated;
  });
  if (!row) throw notFound("webhook endpoint");
  return { row, secret };
}

/**
 * Sends a signed test event to the actor's merchant's endpoint `id` (only to it, enabled or
 * not), through a delivery like any other (404 as ownWebhookEndpoint). At most
 * TEST_EVENTS_PER_HOUR per merchant: each is a delivery retried for days.
 */
export async function sendTestEvent(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  id: string,
): Promise<{
  event_id: string;
  type: typeof TEST_EVENT_TYPE;
  created_at: string;
  delivery_id: string;
}> {
  const endpoint = await ownWebhookEndpoint(deps, actor, id);
  const eventId = crypto.randomUUID();
  const createdAt = new Date();
  const payload = EndpointTestEventSchema.parse({
    event_id: eventId,
    type: TEST_EVENT_TYPE,
    created_at: createdAt.toISOString(),
    endpoint_id: endpoint.id,
  });
  const deliveryId = await deps.db.transaction().execute(async (trx) => {
    const merchantId = actor.identity.merchantId;
    const recent = await lockRecentTestEvents(
      trx,
      merchantId,
      new Date(createdAt.getTime() - HOUR_MS),
    );
    if (recent.count >= TEST_EVENTS_PER_HOUR) {
      const freeAt = (recent.oldest?.getTime() ?? createdAt.getTime()) + HOUR_MS;
      throw new RetryLaterError(
        "rate_limited",
        "rate_limited",
        `at most ${TEST_EVENTS_PER_HOUR} test events an hour`,
        Math.max(1, Math.ceil((freeAt - createdAt.getTime()) / 1000)),
      );
    }
    return insertTestEvent(trx, {
      id: eventId,
      merchantId,
      endpointId: endpoint.id,
      url: endpoint.url,
      createdAt,
      payload: JSON.stringify(payload),
    });
  });
  return {
    event_id: eventId,
    type: TEST_EVENT_TYPE,
    created_at: payload.created_at,
    delivery_id: deliveryId,
  };
}
