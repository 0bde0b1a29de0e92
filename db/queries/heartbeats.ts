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
