import { type AuditRow, listAudit } from "../../db/queries/audit.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";

export type { AuditRow };

/**
 * A page of the actor's own merchant's audit log, newest first: at most `limit` entries, those
 * before the entry `before` when given, those of the member `memberId` (its dashboard sessions
 * and the keys it made) only when given.
 */
export function ownAuditLog(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  page: { limit: number; before?: bigint; memberId?: string },
): Promise<AuditRow[]> {
  return listAudit(deps.db, ownMerchantId(actor.identity), page);
}
