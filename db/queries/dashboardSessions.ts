import { sql } from "kysely";
import type { Role } from "../../domain/accessPolicy.ts";
import type { Executor } from "../database.ts";
import { ownerMemberOf } from "./members.ts";

/** A live dashboard session with its merchant, as a request is authenticated with it. */
export type DashboardSession = {
  sessionId: string;
  merchantId: string;
  /** Lower-case, as stored. */
  merchantEmail: string;
  lastSeenAt: Date;
  memberId: string;
  memberEmail: string;
  memberRole: Role;
};

/**
 * Stores a new session's token hash for the merchant's member `memberId` (default: its owner);
 * it ends at the latest after `absoluteMinutes`.
 */
export async function insertDashboardSession(
  db: Executor,
  session: { merchantId: string; tokenHash: string; absoluteMinutes: number; memberId?: string },
): Promise<string> {
  const row = await db
    .insertInto("app.dashboard_sessions")
    .values({
      merchant_id: session.merchantId,
      member_id: session.memberId ?? ownerMemberOf(session.merchantId),
      token_hash: session.tokenHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${session.absoluteMinutes})`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The session whose token hash is `tokenHash`, if it is neither past its absolute expiry nor idle
 * for longer than `idleMinutes`, and its member not removed; read on every request (a sign-out,
 * or the member's removal, holds at once everywhere).
 */
export async function findLiveDashboardSession(
  db: Executor,
  tokenHash: string,
  idleMinutes: number,
): Promise<DashboardSession | undefined> {
  const row = await db
    .selectFrom("app.dashboard_sessions as s")
    .innerJoin("app.merchants as m", "m.id", "s.merchant_id")
    .innerJoin("app.members as t", "t.id", "s.member_id")
    .select([
      "s.id",
      "s.last_seen_at",
      "m.id as merchant_id",
      "m.email",
      "t.id as member_id",
      "t.email as member_email",
      "t.role as member_role",
    ])
    .where("t.status", "=", "active")
    .where("s.token_hash", "=", tokenHash)
    .where("s.expires_at", ">", sql<Date>`now()`)
    .where("s.last_seen_at", ">", sql<Date>`now() - make_interval(mins => ${idleMinutes})`)
    .executeTakeFirst();
  return (
    row && {
      sessionId: row.id,
      merchantId: row.merchant_id,
      merchantEmail: row.email,
      lastSeenAt: row.last_seen_at,
      memberId: row.member_id,
      memberEmail: row.member_email,
      memberRole: row.member_role,
    }
  );
}

/** Records activity on the session (its idle clock restarts); at most once a minute. */
export async function touchDashboardSession(db: Executor, sessionId: string): Promise<void> {
  await db
    .updateTable("app.dashboard_sessions")
    .set({ last_seen_at: sql<Date>`now()` })
    .where("id", "=", sessionId)
    .where("last_seen_at", "<", sql<Date>`now() - interval '1 minute'`)
    .execute();
}

/** Ends the session with this token hash (sign-out, or a new sign-in in the same browser). */
export async function deleteDashboardSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom("app.dashboard_sessions").where("token_hash", "=", tokenHash).execute();
}

/** Forgets sessions ended by time more than a day ago (called on each sign-in: no job needed). */
export async function deleteExpiredDashboardSessions(db: Executor): Promise<void> {
  await db
    .deleteFrom("app.dashboard_sessions")
    .where("expires_at", "<", sql<Date>`now() - interval '1 day'`)
    .execute();
}
