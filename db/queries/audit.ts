import type { AuditActor } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";

export type AuditEntry = {
  merchantId: string;
  actor: AuditActor;
  /** The key that acted; null unless actor is `key`. */
  keyId: string | null;
  /** The member who acted (its session, or the key's maker); null: none (open mode, the operator). */
  memberId?: string | null;
  /** e.g. `invoice.created`, `key.revoked`, `wallet.added`. */
  action: string;
  /** What was acted on: an invoice id, a key id, a wallet address. */
  target: string;
  requestId: string | null;
  /** What changed, old -> new (settings.updated). */
  details?: AuditDetails;
};

/** An entry's changes by field: {"notification_email": {"from": "a@…", "to": "b@…"}}. */
export type AuditDetails = Record<string, { from: string | null; to: string | null }>;

/** Appends an entry to the merchant's audit log, in the caller's transaction. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("app.audit_log")
    .values({
      merchant_id: entry.merchantId,
      actor: entry.actor,
      key_id: entry.keyId,
      member_id: entry.memberId ?? null,
      action: entry.action,
      target: entry.target,
      request_id: entry.requestId,
      details: entry.details ? JSON.stringify(entry.details) : undefined,
    })
    .execute();
}

export type AuditRow = {
  id: bigint;
  actor: AuditActor;
  key_id: string | null;
  member_id: string | null;
  action: string;
  target: string;
  request_id: string | null;
  created_at: Date;
  details: AuditDetails | null;
};

/**
 * The merchant's entries, newest first, `limit` of them older than entry `before` (if given),
 * those of member `memberId` only when given.
 */
export async function listAudit(
  db: Executor,
  merchantId: string,
  page: { limit: number; before?: bigint; memberId?: string },
): Promise<AuditRow[]> {
  let query = db
    .selectFrom("app.audit_log")
    .select([
      "id",
      "actor",
      "key_id",
      "member_id",
      "action",
      "target",
      "request_id",
      "created_at",
      "details",
    ])
    .where("merchant_id", "=", merchantId);
  if (page.before !== undefined) query = query.where("id", "<", page.before);
  if (page.memberId !== undefined) query = query.where("member_id", "=", page.memberId);
  return query.orderBy("id", "desc").limit(page.limit).execute();
}
