import { sql } from "kysely";
import type { Executor } from "../database.ts";

/** The cheapest statement: resolves when the database answers. */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Milliseconds since the freshest heartbeat of any instance of `component` (app.heartbeats),
 * or null when none has beaten.
 */
export async function heartbeatAgeMs(db: Executor, component: string): Promise<number | null> {
  const row = await db
    .selectFrom("app.heartbeats")
    .select(sql<number | null>`extract(epoch from now() - max(beat_at)) * 1000`.as("age_ms"))
    .where("component", "=", component)
    .executeTakeFirst();
  return row?.age_ms == null ? null : Number(row.age_ms);
}

/** How many sweeps are not confirmed and carry an error: failing, so the relayer needs a look. */
export async function countFailingSweeps(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("app.sweeps")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "!=", "confirmed")
    .where("error", "is not", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
