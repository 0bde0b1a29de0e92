import { z } from "@hono/zod-openapi";
import { type EventDeliveryRow, eventDetail, eventLog } from "../../app/events/eventLog.ts";
import { type Event, EventSchema as LoggedEventSchema } from "../../app/events/paymentEvent.ts";
import { enumListParam, pageParams } from "../../app/lists/listQuery.ts";
import { WEBHOOK_DELIVERY_STATUSES } from "../../domain/statuses.ts";
import { EVENT_LOG_TYPES } from "../../domain/webhookEndpoints.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { listRequest, listRoute, pageBody, pageResponse } from "../lists/listRoute.ts";
import { errorResponses, jsonResponse, keyRoute, pathParam, type Router } from "../openapi.ts";

const EXAMPLE_EVENT_ID = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d";

const eventExample: Event = {
  event_id: EXAMPLE_EVENT_ID,
  type: "invoice.paid",
  created_at: "2026-11-01T10:02:11.000Z",
  invoice_id: "5b0e3f6a-2c1d-4e8f-9a7b-3c4d5e6f7a8b",
  invoice_number: "INV-0042",
  status: "paid",
  tx_hash: "0x8f3c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8",
  paid_amount: "150.00",
  paid_at: "2026-11-01T10:02:09.000Z",
  total_amount: "150.00",
  amount_due: "0.00",
  metadata: { order_id: "1042" },
};

// The one event shape (app/events/paymentEvent.ts), with an example of its commonest type.
const EventSchema = LoggedEventSchema.openapi("Event", { example: eventExample });

const DeliverySchema = z.object({
  delivery_id: z.uuid(),
  endpoint_id: z.uuid().nullable().openapi({
    description: "The webhook endpoint; null: the invoice's or link's own `webhook_url`.",
  }),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).openapi({
    description:
      "`pending` while attempts remain, `delivered` on a 2xx, `gone` on a 410, `failed` once retries ran out (or its endpoint was deleted).",
  }),
  attempts: z.number(),
  last_status_code: z.number().nullable().openapi({
    description: "The last attempt's response code; null before one, or on no response.",
  }),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

const deliveryExample = {
  delivery_id: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
  endpoint_id: "8d2f6a1c-3b4e-4f5a-9c8d-7e6f5a4b3c2d",
  url: "https://acme.example/hooks/remit",
  status: "delivered" as const,
  attempts: 1,
  last_status_code: 200,
  last_attempt_at: "2026-11-01T10:02:12.000Z",
  next_attempt_at: null,
  delivered_at: "2026-11-01T10:02:12.000Z",
};

const QuerySchema = z.object({
  ...pageParams,
  type: enumListParam("type", EVENT_LOG_TYPES, "Only events of these types."),
});
const QUERY_KEYS: readonly string[] = Object.keys(QuerySchema.shape);

const eventsRoute = listRoute({
  path: "/api/events",
  tags: ["Events"],
  summary: "List your events",
  description:
    "Every event of your invoices and payment links (and your test events), newest first, a page at a time (`next_cursor` until the last page), each exactly as it was delivered. Events are kept (at least 30 days are promised). A `read` key is enough.",
  query: QuerySchema,
  response: pageResponse("events", EventSchema, eventExample),
});

const getRoute = keyRoute({
  method: "get",
  path: "/api/events/{id}",
  tags: ["Events"],
  summary: "Get an event and its deliveries",
  description:
    "The event as delivered, and each of its deliveries: to each webhook endpoint, and to the invoice's or link's own `webhook_url`, with its status, attempts and last response code.",
  request: {
    params: z.object({
      id: pathParam(
        "id",
        EXAMPLE_EVENT_ID,
        "An `event_id`; another merchant's, or anything that is not one, is a 404.",
      ),
    }),
  },
  responses: {
    200: jsonResponse(
      "The event",
      z.object({ event: EventSchema, deliveries: z.array(DeliverySchema) }),
      { event: eventExample, deliveries: [deliveryExample] },
    ),
    ...errorResponses(401, 404),
  },
});

const iso = (date: Date | null) => date?.toISOString() ?? null;

const presentDelivery = (row: EventDeliveryRow): z.infer<typeof DeliverySchema> => ({
  delivery_id: row.id,
  endpoint_id: row.endpoint_id,
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.last_status_code,
  last_attempt_at: iso(row.last_attempt_at),
  next_attempt_at: iso(row.next_attempt_at),
  delivered_at: iso(row.delivered_at),
});

/** The API's event log routes: a key's adapters over app/events/eventLog.ts. */
export function registerEventRoutes(app: Router, deps: AppDeps): void {
  app.openapi(eventsRoute, async (c) => {
    const query = c.req.valid("query");
    const { actor, page } = listRequest(c, "events", query, QUERY_KEYS);
    const types = query.type ? [...new Set(query.type.split(","))] : null;
    const result = await eventLog(deps, actor, types, page);
    return c.json(
      pageBody(result, (event) => event),
      200,
    );
  });

  app.openapi(getRoute, async (c) => {
    const { event, deliveries } = await eventDetail(
      deps,
      merchantActorOf(c),
      c.req.valid("param").id,
    );
    return c.json({ event, deliveries: deliveries.map(presentDelivery) }, 200);
  });
}
