import { createRoute, z } from "@hono/zod-openapi";
import { EXAMPLE_EVENT_ID } from "../../app/invoices/examples.ts";
import {
  authorizedWebhookHistory,
  type DeliveryRow,
  type WebhookAttemptRow,
} from "../../app/invoices/invoiceDetail.ts";
import { RedeliveryLimited } from "../../app/invoices/queueRedelivery.ts";
import { redeliverInvoiceEvent } from "../../app/invoices/redeliverEvent.ts";
import { InvoiceIdParamSchema } from "../../app/invoices/schema.ts";
import { formatUsdc } from "../../domain/money.ts";
import { WEBHOOK_DELIVERY_STATUSES } from "../../domain/statuses.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, keySecurity, pathParam, type Router } from "../openapi.ts";
import { deliveryExample, redeliveryExample, webhookEventExample } from "./webhookExamples.ts";

const AttemptSchema = z.object({
  attempt: z.number(),
  attempted_at: z.string(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
});
const DeliverySchema = z
  .object({
    delivery_id: z.uuid(),
    url: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).openapi({
      description:
        "`pending` while attempts remain, `delivered` on a 2xx, `gone` on a 410, `failed` once retries ran out.",
    }),
    attempts: z.number(),
    next_attempt_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    attempt_log: z.array(AttemptSchema),
  })
  .openapi({ example: deliveryExample });
const EventSchema = z
  .object({
    event_id: z.uuid(),
    type: z.string().openapi({
      description:
        "`invoice.paid`, `invoice.partial`, `invoice.excess` or `invoice.payment_reversed`.",
    }),
    status: z.string(),
    paid_amount: z.string(),
    tx_hash: z.string().nullable(),
    created_at: z.string(),
    payload: z
      .string()
      .openapi({ description: "The exact body every delivery of this event sends." }),
    deliveries: z.array(DeliverySchema),
  })
  .openapi("WebhookEvent", { example: webhookEventExample });

const listRoute = createRoute({
  method: "get",
  path: "/api/invoices/{id}/webhooks",
  tags: ["Webhooks"],
  summary: "List an invoice's payment events and their webhook deliveries",
  security: keySecurity,
  description:
    "Every event with every delivery and every attempt (time, status code, latency, error).",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse(
      "The events",
      z
        .object({ events: z.array(EventSchema) })
        .openapi({ example: { events: [webhookEventExample] } }),
    ),
    ...errorResponses(401, 404),
  },
});

const redeliverRoute = createRoute({
  method: "post",
  path: "/api/invoices/{id}/webhooks/{event_id}/redeliver",
  tags: ["Webhooks"],
  summary: "Deliver an event again",
  security: keySecurity,
  description:
    "Queues a new delivery of the same event (same body, same event id: receivers dedupe on it) to the invoice's webhook_url, with its own retries. Limited: one redelivery of an event queued or in flight at a time (409 `redelivery_queued`), and 20 redeliveries per invoice per hour (429 `rate_limited`, `Retry-After`); " +
    "also per client IP and per API key (`RATE_LIMIT_REDELIVERIES_PER_MIN`).",
  request: {
    params: InvoiceIdParamSchema.extend({
      event_id: pathParam(
        "event_id",
        EXAMPLE_EVENT_ID,
        "An `event_id` from `GET /api/invoices/{id}/webhooks`.",
      ),
    }),
  },
  responses: {
    202: jsonResponse("Queued", DeliverySchema, redeliveryExample),
    ...errorResponses(401, 403, 404, 409, 429),
  },
});

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A delivery as the API shows it, with the log of its attempts (of `attempts`, those that are its). */
function presentDelivery(
  delivery: DeliveryRow,
  attempts: WebhookAttemptRow[],
): z.infer<typeof DeliverySchema> {
  return {
    delivery_id: delivery.id,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: iso(delivery.next_attempt_at),
    delivered_at: iso(delivery.delivered_at),
    attempt_log: attempts
      .filter((a) => a.delivery_id === delivery.id)
      .map((a) => ({
        attempt: a.attempt,
        attempted_at: a.attempted_at.toISOString(),
        status_code: a.status_code,
        latency_ms: a.latency_ms,
        error: a.error,
      })),
  };
}

export function registerInvoiceWebhooks(app: Router, deps: AppDeps): void {
  app.openapi(listRoute, async (c) => {
    const id = c.req.valid("param").id;
    const { events, deliveries, attempts } = await authorizedWebhookHistory(deps, actorOf(c), id);
    return c.json(
      {
        events: events.map((event) => ({
          event_id: event.id,
          type: event.type,
          status: event.status,
          paid_amount: formatUsdc(event.paid_amount),
          tx_hash: event.tx_hash,
          created_at: event.created_at.toISOString(),
          payload: event.payload,
          deliveries: deliveries
            .filter((d) => d.event_id === event.id)
            .map((d) => presentDelivery(d, attempts)),
        })),
      },
      200,
    );
  });

  app.openapi(redeliverRoute, async (c) => {
    const { id, event_id: eventId } = c.req.valid("param");
    const delivery = await redeliverInvoiceEvent(deps, actorOf(c), id, eventId).catch(
      (error: unknown) => {
        if (error instanceof RedeliveryLimited)
          c.header("Retry-After", String(error.retryAfterSeconds));
        throw error;
      },
    );
    return c.json(presentDelivery(delivery, []), 202);
  });
}
