import type { z } from "@hono/zod-openapi";
import type { WebhookEndpointRow } from "../../app/webhookEndpoints/manageEndpoints.ts";
import type { WebhookEndpointSchema } from "../../app/webhookEndpoints/schema.ts";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** An endpoint as the API shows it: never its secret. */
export function presentWebhookEndpoint(
  row: WebhookEndpointRow,
): z.infer<typeof WebhookEndpointSchema> {
  const overlapping = row.previous_secret_expires_at && row.previous_secret_expires_at > new Date();
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    previous_secret_expires_at: overlapping ? iso(row.previous_secret_expires_at) : null,
  };
}
