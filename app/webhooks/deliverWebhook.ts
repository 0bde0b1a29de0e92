import type { Db } from "../../db/database.ts";
import {
  consecutiveEndpointFailures,
  disableFailingEndpoint,
} from "../../db/queries/endpointHealth.ts";
import { insertWebhookAttempt } from "../../db/queries/webhookAttempts.ts";
import {
  type DeliveryToAttempt,
  findDeliveryToAttempt,
  updateWebhookDelivery,
} from "../../db/queries/webhookDeliveries.ts";
import type { DeliverySlots } from "../../domain/deliverySlots.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { retryDelay, shouldRetry } from "../../domain/retrySchedule.ts";
import { type Keyring, openSecret } from "../../domain/secretBox.ts";
import { signingSecrets } from "../../domain/webhookEndpoints.ts";
import { signatureHeaders } from "../../domain/webhookSignature.ts";
import { postWebhook, WebhookRefused } from "../../webhooks/postWebhook.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";

/** The worker's webhook settings; `keys` opens the sealed webhook secrets to sign with. */
export type WebhookDeliverySettings = {
  allowPrivate: boolean;
  retryBaseMs: number;
  timeoutMs: number;
  keys: Keyring;
  /** Each merchant's and endpoint's share of the webhook queue's slots (domain/deliverySlots.ts); none: no shares. */
  slots?: DeliverySlots;
  /** Failed attempts in a row after which an endpoint is disabled and its merchant emailed; none: never. */
  disableEndpointAfter?: number;
};

/** What delivering a webhook needs from the worker's process. */
export type DeliverWebhookDeps = {
  db: Db;
  webhooks: WebhookDeliverySettings;
  /** Queues the delivery's next attempt, or this one again once a slot is free (deliver_webhook). */
  addJob: AddJob;
  log: JobLog;
};

/** Failed attempts in a row after which an endpoint gets one delivery at a time. */
const SLOW_AFTER_FAILURES = 3;

/** The least an attempt whose merchant's share is taken waits before it tries again. */
const SLOT_WAIT_MS = 1000;

/**
 * One attempt to deliver a webhook event. The body was fixed when the event was recorded, so
 * every attempt (and every redelivery) carries the same bytes and the same event id; the
 * receiver dedupes on it. A 2xx delivers; `410 Gone` stops for good; anything else — another
 * status, a timeout, a network error — is retried with exponential backoff and jitter for at
 * least 72 hours. Every attempt is recorded. A URL refused by the SSRF guard fails at once.
 * A delivery to a merchant's webhook endpoint is signed with the endpoint's secret at the time
 * of the attempt (both secrets during a rotation's overlap); once the endpoint is deleted, its
 * pending deliveries fail without another attempt.
 */
export async function deliverWebhook(deps: DeliverWebhookDeps, deliveryId: string): Promise<void> {
  const delivery = await findDeliveryToAttempt(deps.db, deliveryId);
  if (delivery?.status !== "pending" || !delivery.webhook_secret) return;
  if (delivery.endpoint_deleted) {
    await updateWebhookDelivery(deps.db, delivery.id, {
      attempts: delivery.attempts,
      status: "failed",
      delivered_at: null,
      next_attempt_at: null,
    });
    deps.log.info(`webhook ${delivery.event_id}: its endpoint was deleted; not sent`);
    return;
  }

  // This merchant's share of the queue's slots: when it is taken (its receivers slow, or
  // hanging), the attempt waits its turn outside the queue, so its slot serves another
  // merchant meanwhile. The share is looked at first, in memory: a waiting attempt costs the
  // queue one lookup, not the endpoint's history too.
  const slots = deps.webhooks.slots;
  const merchantKey = delivery.merchant_id ?? delivery.url;
  const endpointKey = delivery.endpoint_id ?? delivery.url;
  const wait = async () => {
    await deps.addJob(
      TASK.deliverWebhook,
      { delivery_id: delivery.id },
      {
        jobKey: `${jobKey.webhookAttempt(delivery.id, delivery.attempts + 1)}:wait`,
        // Spread over a deadline: a share frees when a held attempt ends, which for a hanging
        // receiver is its deadline; polling faster only costs everybody queue turns.
        runAt: new Date(Date.now() + SLOT_WAIT_MS + Math.random() * deps.webhooks.timeoutMs),
      },
    );
  };
  if (slots && slots.inFlight(merchantKey) >= slots.perMerchant) return wait();
  // An endpoint failing attempt after attempt (a receiver that hangs) is slowed to one
  // delivery at a time, then disabled below.
  const failing =
    slots !== undefined &&
    delivery.endpoint_id !== null &&
    (await consecutiveEndpointFailures(deps.db, delivery.endpoint_id, SLOW_AFTER_FAILURES)) >=
      SLOW_AFTER_FAILURES;
  const slot = slots?.tryTake(merchantKey, endpointKey, failing ? 1 : undefined);
  if (slot === null) return wait();
  try {
    await attemptDelivery(deps, { ...delivery, webhook_secret: delivery.webhook_secret });
  } finally {
    slot?.release();
  }
}

async function attemptDelivery(
  deps: DeliverWebhookDeps,
  delivery: DeliveryToAttempt & { webhook_secret: string },
): Promise<void> {
  const attempt = delivery.attempts + 1;
  const body = delivery.payload;
  // Stored sealed; a key that cannot open it throws, and the job is retried once fixed.
  const open = (sealed: string) => openSecret(sealed, deps.webhooks.keys);
  const [current, ...previous] = signingSecrets(
    delivery.webhook_secret,
    { secret: delivery.previous_secret, expiresAt: delivery.previous_secret_expires_at },
    new Date(),
  );
  const headers = signatureHeaders(
    delivery.event_id,
    body,
    [open(current as string), ...previous.map(open)],
    Math.floor(Date.now() / 1000),
  );
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let refused = false;
  try {
    statusCode = (
      await postWebhook(delivery.url, body, headers, {
        timeoutMs: deps.webhooks.timeoutMs,
        allowPrivate: deps.webhooks.allowPrivate,
      })
    ).statusCode;
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause);
    refused = cause instanceof WebhookRefused;
  }
  const latency = Math.round(performance.now() - started);
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const gone = statusCode === 410;
  const now = new Date();
  const retry = !delivered && !gone && !refused && shouldRetry(delivery.created_at, now);
  const nextAttemptAt = retry
    ? new Date(now.getTime() + retryDelay(attempt, deps.webhooks.retryBaseMs))
    : null;

  await deps.db.transaction().execute(async (trx) => {
    await insertWebhookAttempt(trx, {
      delivery_id: delivery.id,
      attempt,
      status_code: statusCode,
      latency_ms: latency,
      error,
    });
    await updateWebhookDelivery(trx, delivery.id, {
      attempts: attempt,
      status: delivered ? "delivered" : gone ? "gone" : retry ? "pending" : "failed",
      delivered_at: delivered ? now : null,
      next_attempt_at: nextAttemptAt,
    });
  });
  const disableAfter = deps.webhooks.disableEndpointAfter;
  if (!delivered && delivery.endpoint_id && disableAfter) {
    const endpointId = delivery.endpoint_id;
    const failures = await consecutiveEndpointFailures(deps.db, endpointId, disableAfter);
    if (failures >= disableAfter) {
      const disabled = await deps.db
        .transaction()
        .execute((trx) => disableFailingEndpoint(trx, endpointId, failures));
      if (disabled)
        deps.log.warn(
          `webhook endpoint ${endpointId} disabled after ${failures} failed attempts in a row; its merchant is emailed`,
        );
    }
  }
  if (nextAttemptAt) {
    // A key of its own per attempt: this job still holds the delivery's key while it runs.
    await deps.addJob(
      TASK.deliverWebhook,
      { delivery_id: delivery.id },
      { jobKey: jobKey.webhookAttempt(delivery.id, attempt + 1), runAt: nextAttemptAt },
    );
  }
  deps.log.info(
    `webhook ${delivery.event_id} attempt ${attempt} → ${statusCode ?? error}${nextAttemptAt ? `; retry at ${nextAttemptAt.toISOString()}` : ""}`,
  );
}
