import type { Generated } from "kysely";
import type { WebhookDeliveryStatus } from "../../domain/statuses.ts";

/** Webhook endpoints, deliveries and their attempts: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface WebhookTables {
  /** A merchant's webhook endpoints (migration 0032); secrets sealed (domain/secretBox.ts). */
  "app.webhook_endpoints": {
    id: Generated<string>;
    merchant_id: string;
    url: string;
    /** null: every event type. */
    events: string[] | null;
    secret: string;
    previous_secret: Generated<string | null>;
    previous_secret_expires_at: Generated<Date | null>;
    enabled: Generated<boolean>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
    deleted_at: Generated<Date | null>;
  };
  "app.webhook_deliveries": {
    id: Generated<string>;
    event_id: string;
    url: string;
    status: Generated<WebhookDeliveryStatus>;
    attempts: Generated<number>;
    next_attempt_at: Date | null;
    delivered_at: Date | null;
    created_at: Generated<Date>;
    /** The merchant's webhook endpoint it goes to; null: the invoice's or link's webhook_url. */
    endpoint_id: Generated<string | null>;
  };
  "app.webhook_attempts": {
    id: Generated<bigint>;
    delivery_id: string;
    attempt: number;
    attempted_at: Generated<Date>;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
  };
}
