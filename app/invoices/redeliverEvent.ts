import { recordAudit } from "../../db/queries/audit.ts";
import type { DeliveryRow } from "../../db/queries/webhookDeliveries.ts";
import { findInvoiceEventId } from "../../db/queries/webhookHistory.ts";
import { type Actor, auditActor } from "../actor.ts";
import { authorizedInvoice } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { notFound, Refusal } from "../refusal.ts";
import { queueRedelivery } from "./queueRedelivery.ts";

/**
 * Queues a redelivery of the invoice's event `eventId` to its webhook_url, as `actor` (who
 * must be allowed to see the invoice), audited in the queuing transaction, within
 * queueRedelivery's limits (409 `redelivery_queued`, 429 RedeliveryLimited): the API's
 * POST …/redeliver and the dashboard's redeliver button.
 */
export async function redeliverInvoiceEvent(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  invoiceId: string,
  eventId: string,
): Promise<DeliveryRow> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, invoiceId);
  if (!invoice.webhook_url)
    throw new Refusal("conflict", "no_webhook_url", "this invoice has no webhook_url");
  const event = await findInvoiceEventId(deps.db, invoice.id, eventId);
  if (!event) throw notFound("event");
  return queueRedelivery(deps, invoice.id, event, invoice.webhook_url, (trx) =>
    recordAudit(trx, {
      merchantId: invoice.merchant_id,
      ...auditActor(actor.identity),
      action: "webhook.redelivered",
      target: eventId,
      requestId: actor.requestId,
    }),
  );
}
