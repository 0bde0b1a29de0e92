import { sql } from "kysely";
import type { Executor } from "../database.ts";

/** A live dashboard session with its merchant, as a request is authenticated with it. */
export type DashboardSession = {
  sessionId: string;
  merchantId: string;
  /** Lower-case, as stored. */
  merchantEmail: string;
  lastSeenAt: Date;
};

/** Stores a new session's token hash for the merchant; it ends at the latest after `absoluteMinutes`. */
export async function insertDashboardSession(
  db: Executor,
  session: { merchantId: string; tokenHash: string; absoluteMinutes: number },
): Promise<string> {
  const row = await db
    .insertInto("app.dashboard_sessions")
    .values({
      merchant_id: session.merchantId,
      token_hash: session.tokenHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${session.absoluteMinutes})`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The session whose token hash is `tokenHash`, if it is neither past its absolute expiry nor idle
 * for longer than `idleMinutes`; read on every request (a sign-out holds at once everywhere).
 */
export async function findLiveDashboardSession(
  db: Executor,
  tokenHash: string,
  idleMinutes: number,
): Promise<DashboardSession | undefined> {
  const row = await db
    .selectFrom("app.dashboard_sessions as s")
    .innerJoin("app.merchants as m", "m.id", "s.merchant_id")
    .select(["s.id", "s.last_seen_at", "m.id as merchant_id", "m.email"])
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
