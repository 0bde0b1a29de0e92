import pg from "pg";

export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Records every 5 s that `component` is alive (app.heartbeats), so /health can tell a live
 * process from a dead one without the processes talking to each other. Returns a stop function.
 */
export function startHeartbeat(component: string, connectionString: string): () => Promise<void> {
  const pool = new pg.Pool({ connectionString, max: 1 });
  // A lost connection is retried on the next beat; /health reports the gap meanwhile.
  pool.on("error", () => {});
  const beat = () =>
    pool
      .query(
        `insert into app.heartbeats (component, pid, beat_at) values ($1, $2, now())
         on conflict (component) do update set pid = excluded.pid, beat_at = excluded.beat_at`,
        [component, process.pid],
      )
      .catch(() => {});
  void beat();
  const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    // A clean stop says so at once; a crash shows as a heartbeat that goes stale.
    await pool
      .query("delete from app.heartbeats where component = $1 and pid = $2", [
        component,
        process.pid,
      ])
      .catch(() => {});
    await pool.end();
  };
}

/** Forgets every heartbeat: called by `npm start` before it starts any process. */
export async function clearHeartbeats(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("delete from app.heartbeats");
  } finally {
    await client.end();
  }
}
