import { z } from "zod";

/** Emails and webhooks: where they go, retries, deadlines and per-receiver slots. Part of internal/env.ts's schema; `.env.example` documents each. */
export const deliverySettings = {
  /** Real SendGrid when set; otherwise emails go to the local capture outbox. */
  SENDGRID_API_KEY: z.string().min(1).optional(),
  SENDGRID_API_URL: z.url().optional(),
  EMAIL_FROM: z.string().min(3).default("Remit <invoices@remit.localhost>"),
  /** Allow webhooks to loopback/private addresses and plain http. Default: only locally. */
  ALLOW_PRIVATE_WEBHOOKS: z.enum(["true", "false"]).optional(),
  /** First webhook retry delay; doubles per attempt (capped at 6 h), ±50 % jitter. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  /** The whole of one webhook delivery (connect, answer, body): cut at this deadline. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(15_000).default(15_000),
  /**
   * Webhook deliveries one merchant, and one endpoint (or webhook URL), may have in flight at
   * once in a worker: receivers that hang hold at most this share of the slots above.
   */
  WEBHOOK_SLOTS_PER_MERCHANT: z.coerce.number().int().min(1).max(200).default(3),
  WEBHOOK_SLOTS_PER_ENDPOINT: z.coerce.number().int().min(1).max(200).default(2),
  /** An endpoint failing this many attempts in a row is disabled and its merchant emailed. */
  WEBHOOK_ENDPOINT_DISABLE_AFTER: z.coerce.number().int().min(1).max(10_000).default(20),
};
