import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Kysely, PostgresDialect, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import pg from "pg";
import { graphileLogger } from "../internal/graphileLogger.ts";
import { createLogger } from "../internal/logger.ts";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Plain `.sql` files in db/migrations, applied in name order by kysely's Migrator (which keeps
 * the locking and the bookkeeping). SQL suits a schema made mostly of tables and triggers,
 * and frozen files never import application code.
 */
class SqlFileMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(migrationsDir)).filter((file) => file.endsWith(".sql")).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const text = await readFile(path.join(migrationsDir, file), "utf8");
      migrations[file.replace(/\.sql$/, "")] = {
        up: async (db) => {
          await sql.raw(text).execute(db);
        },
      };
    }
    return migrations;
  }
}

let graphileWorker: Promise<typeof import("graphile-worker")> | undefined;

/**
 * graphile-worker, loaded on first use (or ahead, by `npm start` while its database and chain
 * start): imported at the top it was ~0.2 s of the supervisor's module loading, before anything
 * else could begin.
 */
export const loadMigrationTools = () => (graphileWorker ??= import("graphile-worker"));

/**
 * Brings a database up to date: graphile-worker's schema first (app triggers call its
 * add_job), then Remit's. Safe to run concurrently and repeatedly.
 */
export async function migrate(
  connectionString: string,
  /** Stop after this migration (e.g. "0007_sweeps"), to test a later one against old data. */
  upTo?: string,
): Promise<string[]> {
  const { runMigrations } = await loadMigrationTools();
  await runMigrations({ connectionString, logger: graphileLogger(createLogger("migrate")) });
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1 }) }),
  });
  try {
    const migrator = new Migrator({
      db,
      provider: new SqlFileMigrationProvider(),
      migrationTableSchema: "app",
    });
    const { error, results } = upTo
      ? await migrator.migrateTo(upTo)
      : await migrator.migrateToLatest();
    if (error) throw error;
    return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  } finally {
    await db.destroy();
  }
}
