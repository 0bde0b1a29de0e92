import { hostname } from "node:os";
import pg from "pg";
import { isAlive } from "../internal/process.ts";

const HEARTBEAT_INTERVAL_MS = 5_000;

/** This process, as heartbeats name it: `<host>:<pid>`. */
const processInstance = (): string => `${hostname()}:${process.pid}`;

/**
 * Records every 5 s that this instance of `component` is alive (app.heartbeats), with the
 * ids of its graphile-worker workers, so /health can tell a live process from a dead one and a
 * restarted worker can release a crashed one's jobs. Returns a stop function, whose `beatNow`
 * publishes at once (a worker beats as soon as it has new worker ids, before they hold jobs
 * for long).
 */
export function startHeartbeat(
  component: string,
  connectionString: string,
  workerIds: () => string[] = () => [],
): (() => Promise<void>) & { beatNow: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString, max: 1 });
  // A lost connection is retried on the next beat; /health reports the gap meanwhile.
  pool.on("error", () => {});
  const instance = processInstance();
  const beat = () =>
    pool
      .query(
        `insert into app.heartbeats (component, instance, pid, worker_ids, beat_at) values ($1, $2, $3, $4, now())
         on conflict (component, instance) do update set pid = excluded.pid, worker_ids = excluded.worker_ids, beat_at = excluded.beat_at`,
        [component, instance, process.pid, workerIds()],
      )
      .catch(() => {});
  void beat();
  const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  const stop = async () => {
    clearInterval(timer);
    // A clean stop says so at once; a crash shows as a heartbeat that goes stale.
    await pool
      .query("delete from app.heartbeats where component = $1 and instance = $2", [
        component,
        instance,
      ])
      .catch(() => {});
    await pool.end();
  };
  return Object.assign(stop, { beatNow: async () => void (await beat()) });
}

/**
 * Forgets heartbeats: those of this host's processes that are gone (npm start, before it
 * starts anything: an earlier run's must not make this one look ready, while replicas, here
 * or on other hosts, keep theirs), or one dead process's.
 */
export async function clearHeartbeats(connectionString: string, pid?: number): Promise<void> {
  const client = new pg.Client({ connectionString });
  // A dropped connection rejects the query in flight; unhandled, the event would crash us.
  client.on("error", () => {});
  await client.connect();
  try {
    if (pid === undefined) {
      const { rows } = await client.query<{ instance: string; pid: number }>(
        "select instance, pid from app.heartbeats where starts_with(instance, $1)",
        [`${hostname()}:`],
      );
      const gone = rows.filter((row) => !isAlive(row.pid)).map((row) => row.instance);
      await client.query("delete from app.heartbeats where instance = any($1)", [gone]);
    } else
      await client.query("delete from app.heartbeats where instance = $1", [
        `${hostname()}:${pid}`,
      ]);
  } finally {
    await client.end();
  }
}
