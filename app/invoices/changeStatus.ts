import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { findInvoice, type InvoiceRow } from "../../db/queries/invoices.ts";
import { type Actor, auditActor } from "../actor.ts";
import { authorizedInvoice } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal } from "../refusal.ts";

/**
 * One status change of the invoice `id` for `actor` (sending, voiding): `mark` changes it when
 * the invoice's status allows, audited as `action` in the same transaction; otherwise a 409
 * with `code` and `refused(current status)` (404/401 as authorizedInvoice decides).
 */
export async function changeInvoiceStatus(
  deps: CoreDeps,
  actor: Actor,
  id: string,
  change: {
    mark: (trx: Transaction<Database>, invoiceId: string) => Promise<InvoiceRow | undefined>;
    action: string;
    code: string;
    refused: (current: string) => string;
  },
): Promise<InvoiceRow> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const changed = await deps.db.transaction().execute(async (trx) => {
    const updated = await change.mark(trx, invoice.id);
    if (updated)
      await recordAudit(trx, {
        merchantId: invoice.merchant_id,
        ...auditActor(actor.identity),
        action: change.action,
        target: invoice.id,
        requestId: actor.requestId,
      });
    return updated;
  });
  if (!changed) {
    const current = (await findInvoice(deps.db, id))?.status ?? invoice.status;
    throw new Refusal("conflict", change.code, change.refused(current));
  }
  return changed;
}
