import pg from "pg";

/**
 * Releases the lock a killed Ponder left on its schema, the same update Ponder makes on a clean
 * shutdown. Without it a restarted indexer waits out Ponder's 25 s heartbeat timeout. Only
 * safe once the previous indexer is known to be dead: the supervisor calls it after its own
 * child has exited.
 */
export async function releasePonderLock(connectionString: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  // A dropped connection rejects the query in flight; unhandled, the event would crash us.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(
      `update ${pg.escapeIdentifier(schema)}._ponder_meta
       set value = jsonb_set(value, '{is_locked}', to_jsonb(0)) where key = 'app'`,
    );
  } catch (error) {
    // No _ponder_meta yet: the indexer died before creating its schema, nothing is locked.
    const code = (error as { code?: string }).code;
    if (code !== "42P01" && code !== "3F000") throw error;
  } finally {
    await client.end();
  }
}
