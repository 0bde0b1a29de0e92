import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import {
  type DeliveryRow,
  insertWebhookDelivery,
  lockRedeliveryBudget,
} from "../../db/queries/webhookDeliveries.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal } from "../refusal.ts";

/** Redeliveries of one invoice's events per hour (first deliveries are not counted). */
export const REDELIVERIES_PER_INVOICE_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

/** Thrown with the seconds a client should wait (the route sets `Retry-After`). */
export class RedeliveryLimited extends Refusal {
  constructor(readonly retryAfterSeconds: number) {
    super(
      "rate_limited",
      "rate_limited",
      `at most ${REDELIVERIES_PER_INVOICE_PER_HOUR} redeliveries per invoice per hour; retry after ${retryAfterSeconds} s`,
    );
  }
}

/**
 * Queues a redelivery of an invoice's event, within two limits (each delivery can hold a
 * webhook slot of the worker until its deadline): at most one redelivery of an event queued
 * or in flight at a time (409 `redelivery_queued`), and REDELIVERIES_PER_INVOICE_PER_HOUR per
 * invoice (429 `rate_limited` with the seconds to wait). Judged and inserted in one
 * transaction under the event's row lock, so concurrent requests cannot both slip through.
 */
export async function queueRedelivery(
  deps: Pick<CoreDeps, "db">,
  invoiceId: string,
  eventId: string,
  url: string,
  /** Also done in the queuing transaction (the audit entry of it). */
  alongside?: (trx: Transaction<Database>) => Promise<void>,
): Promise<DeliveryRow> {
  return deps.db.transaction().execute(async (trx) => {
    const now = Date.now();
    const budget = await lockRedeliveryBudget(trx, invoiceId, eventId, new Date(now - HOUR_MS));
    if (budget.queuedDeliveryId)
      throw new Refusal(
        "conflict",
        "redelivery_queued",
        `redelivery ${budget.queuedDeliveryId} of this event is queued or being attempted; redeliver once it has been attempted`,
      );
    if (budget.recent >= REDELIVERIES_PER_INVOICE_PER_HOUR) {
      const freesAt = (budget.oldestRecentAt?.getTime() ?? now) + HOUR_MS;
      throw new RedeliveryLimited(Math.max(1, Math.ceil((freesAt - now) / 1000)));
    }
    const delivery = await insertWebhookDelivery(trx, eventId, url);
    await alongside?.(trx);
    return delivery;
  });
}
