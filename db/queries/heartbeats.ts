import { sql } from "kysely";
import type { Executor } from "../database.ts";

/** A process's heartbeat: who it is and the graphile-worker workers it runs. */
export type HeartbeatOfHost = { instance: string; pid: number; worker_ids: string[] };

/** The heartbeats of the processes of `host` (instances are named `<host>:<pid>`). */
export async function findHeartbeatsOfHost(db: Executor, host: string): Promise<HeartbeatOfHost[]> {
  return db
    .selectFrom("app.heartbeats")
    .select(["instance", "pid", "worker_ids"])
    .where("instance", "like", `${host}:%`)
    .execute();
}

/** Forgets the heartbeats of these instances. */
export async function deleteHeartbeats(db: Executor, instances: string[]): Promise<void> {
  if (!instances.length) return;
  await db.deleteFrom("app.heartbeats").where("instance", "in", instances).execute();
}

/**
 * Milliseconds since the freshest heartbeat of any instance of `component`, or null when none
 * has beaten (what /health judges a process alive by).
 */
export async function heartbeatAgeMs(db: Executor, component: string): Promise<number | null> {
  const row = await db
    .selectFrom("app.heartbeats")
    .select(sql<number | null>`extract(epoch from now() - max(beat_at)) * 1000`.as("age_ms"))
    .where("component", "=", component)
    .executeTakeFirst();
  return row?.age_ms == null ? null : Number(row.age_ms);
}
