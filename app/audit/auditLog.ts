import { type AuditRow, listAudit } from "../../db/queries/audit.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";

export type { AuditRow };

/**
 * A page of the actor's own merchant's audit log, newest first: at most `limit` entries, those
 * before the entry `before` when given.
 */
export function ownAuditLog(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  page: { limit: number; before?: bigint },
): Promise<AuditRow[]> {
  return listAudit(deps.db, ownMerchantId(actor.identity), page);
}
