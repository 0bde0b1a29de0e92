import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";

const POLL_MS = 200;

/**
 * Resolves once this process's Ponder is live: it has taken its schema, finished its backfill
 * and said so (`_ponder_meta`'s `is_ready`, which Ponder sets to 0 when it takes the schema and
 * to 1 when it starts indexing live, with a `heartbeat_at` of then).
 *
 * Why /health waits for it: after a restart Ponder first reverts its unfinalised rows and indexes
 * them again (crash recovery), and its `_ponder_checkpoint` still shows where the previous run
 * stopped, so an indexer counted as up from its first heartbeat was "within 10 blocks of the
 * head" while a new payment waited seconds for it (the restart benchmark: receipt → indexed row
 * 3.8–5.0 s for the first payment after `healthy`). The previous run's own `is_ready` 1 stays
 * in the table until this one takes the schema: only a `heartbeat_at` from after `since` (this
 * process's start) counts.
 */
export async function whenPonderLive(
  databaseUrl: string,
  schema: string,
  since: number,
  signal?: AbortSignal,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  // A lost connection is retried at the next poll.
  pool.on("error", () => {});
  const meta = `${pg.escapeIdentifier(schema)}._ponder_meta`;
  try {
    while (!signal?.aborted) {
      const live = await pool
        .query<{ live: boolean }>(
          `select coalesce((value->>'is_ready')::int = 1 and (value->>'heartbeat_at')::bigint >= $1, false) as live
           from ${meta} where key = 'app'`,
          [since],
        )
        .then((result) => result.rows[0]?.live === true)
        // Not created yet (a first start), or the database away: not live yet.
        .catch(() => false);
      if (live) return;
      await delay(POLL_MS, undefined, { signal }).catch(() => {});
    }
  } finally {
    await pool.end();
  }
}
