import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { whenPonderLive } from "../../indexer/ponderLive.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

const SCHEMA = "idx_live_test";

/**
 * After a restart Ponder reverts its unfinalised rows and indexes them again before it indexes
 * live, and its checkpoint still shows where the previous run stopped: an indexer counted from its
 * first heartbeat made /health say payments were detected while the first payment after the
 * restart waited 3.8–5 s for its row (bench/restart.ts). The indexer now beats only once this
 * run's Ponder is live; these are the states of Ponder's `_ponder_meta` it reads.
 */
describe("the indexer counts as up only once its Ponder indexes live", () => {
  let database: TestDatabase;
  const since = Date.now();
  const meta = (value: Record<string, unknown>) =>
    sql`insert into ${sql.table(`${SCHEMA}._ponder_meta`)} (key, value) values ('app', ${JSON.stringify(value)}::jsonb)
        on conflict (key) do update set value = excluded.value`.execute(database.db);
  /** Whether `promise` settles within `ms`: the wait polls every 200 ms, so this sees 3 polls. */
  const settles = async (promise: Promise<void>, ms: number) => {
    let settled = false;
    void promise.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return settled;
  };

  beforeEach(async () => {
    database = await createTestDatabase();
    await sql`create schema ${sql.id(SCHEMA)}`.execute(database.db);
  });
  afterEach(() => database?.drop());

  test("not before the table exists, nor on the previous run's is_ready; at this run's", async () => {
    const controller = new AbortController();
    const live = whenPonderLive(database.url, SCHEMA, since, controller.signal);
    try {
      // A first start: Ponder has not created its tables yet.
      expect(await settles(live, 600)).toBe(false);
      await sql`create table ${sql.table(`${SCHEMA}._ponder_meta`)} (key text primary key, value jsonb)`.execute(
        database.db,
      );
      // What a previous run left: ready, its lock released, its heartbeat from before this start.
      await meta({ is_locked: 0, is_ready: 1, heartbeat_at: since - 60_000 });
      expect(await settles(live, 600)).toBe(false);
      // This run took the schema (crash recovery, backfill): not ready.
      await meta({ is_locked: 1, is_ready: 0, heartbeat_at: since + 10 });
      expect(await settles(live, 600)).toBe(false);
      // Live.
      await meta({ is_locked: 1, is_ready: 1, heartbeat_at: since + 10 });
      await live;
    } finally {
      controller.abort();
    }
  });

  test("a stop asked for ends the wait", async () => {
    const controller = new AbortController();
    const live = whenPonderLive(database.url, SCHEMA, since, controller.signal);
    controller.abort();
    await expect(live).resolves.toBeUndefined();
  });
});
