import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pruneIndexerBuilds } from "../../platform/indexerUpgrade.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * `remit indexer prune`'s rules, on builds laid out as Ponder leaves them (its `_ponder_meta`
 * with the lock and its heartbeat, a `usdc_transfer` table, the `indexer` views on one build):
 * the current build, one a live indexer holds and one kept on request survive; a build whose
 * indexer stopped (unlocked) or died long ago (a stale lock) is dropped with its watermark.
 * test/hardening/upgradeWithoutGap.test.ts runs it after a real upgrade.
 */
describe("pruning old indexer builds", () => {
  let database: TestDatabase;
  const now = Date.now();

  const build = async (schema: string, meta: { is_locked: number; heartbeat_at: number }) => {
    await sql`create schema ${sql.id(schema)}`.execute(database.db);
    await sql`create table ${sql.table(`${schema}._ponder_meta`)} (key text primary key, value jsonb)`.execute(
      database.db,
    );
    await sql`insert into ${sql.table(`${schema}._ponder_meta`)} values ('app', ${JSON.stringify({ ...meta, is_ready: 1 })}::jsonb)`.execute(
      database.db,
    );
    await sql`create table ${sql.table(`${schema}.usdc_transfer`)} (id text primary key)`.execute(
      database.db,
    );
    await sql`insert into app.reconcile_watermarks (indexer_schema, block_number) values (${schema}, 1)`.execute(
      database.db,
    );
  };
  const schemas = async () =>
    (
      await sql<{
        name: string;
      }>`select nspname as name from pg_namespace where nspname like 'idx_p_%' order by 1`.execute(
        database.db,
      )
    ).rows.map((row) => row.name);

  beforeAll(async () => {
    database = await createTestDatabase();
    await build("idx_p_current", { is_locked: 1, heartbeat_at: now });
    await build("idx_p_building", { is_locked: 1, heartbeat_at: now - 5_000 });
    await build("idx_p_rollback", { is_locked: 0, heartbeat_at: now - 3_600_000 });
    await build("idx_p_stopped", { is_locked: 0, heartbeat_at: now - 10_000 });
    await build("idx_p_crashed", { is_locked: 1, heartbeat_at: now - 3_600_000 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  test("nothing is dropped while no build is current", async () => {
    const result = await pruneIndexerBuilds(database.db, { nowMs: now });
    expect(result.dropped).toEqual([]);
    expect(await schemas()).toHaveLength(5);
  });

  test("drops the stopped and the long-dead builds; keeps the current, the live and the kept", async () => {
    await sql`create schema if not exists indexer`.execute(database.db);
    await sql`create view indexer.usdc_transfer as select * from idx_p_current.usdc_transfer`.execute(
      database.db,
    );
    const result = await pruneIndexerBuilds(database.db, { keep: ["idx_p_rollback"], nowMs: now });
    expect(result.dropped.sort()).toEqual(["idx_p_crashed", "idx_p_stopped"]);
    expect(result.kept).toEqual([
      { schema: "idx_p_building", reason: "a running indexer holds its lock" },
      { schema: "idx_p_current", reason: "current: the indexer views point at it" },
      { schema: "idx_p_rollback", reason: "kept on request" },
    ]);
    expect(await schemas()).toEqual(["idx_p_building", "idx_p_current", "idx_p_rollback"]);
    const { rows } = await sql<{
      indexer_schema: string;
    }>`select indexer_schema from app.reconcile_watermarks order by 1`.execute(database.db);
    expect(rows.map((row) => row.indexer_schema)).toEqual([
      "idx_p_building",
      "idx_p_current",
      "idx_p_rollback",
    ]);
    // The views still read the current build.
    await expect(
      sql`select * from indexer.usdc_transfer`.execute(database.db),
    ).resolves.toBeDefined();
  });
});
