import { sql } from "kysely";
import type { Executor } from "../database.ts";

/** The server's major version (15 for 15.14): pg_dump and pg_restore must be at least this. */
export async function serverMajorVersion(db: Executor): Promise<number> {
  const { rows } = await sql<{
    version: number;
  }>`select current_setting('server_version_num')::int / 10000 as version`.execute(db);
  return rows[0]?.version ?? 0;
}

/**
 * The extensions installed in `schemas` (pg_trgm and btree_gin live in `app`): a dump limited
 * to schemas leaves extensions out unless named.
 */
export async function extensionsIn(db: Executor, schemas: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select e.extname as name from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where n.nspname in (${sql.join(schemas)}) order by e.extname`.execute(db);
  return rows.map((row) => row.name);
}

/** Whether `schema` exists: a restore goes into a database without Remit's schemas. */
export async function schemaExists(db: Executor, schema: string): Promise<boolean> {
  const { rows } = await sql<{
    found: boolean;
  }>`select to_regnamespace(${schema}) is not null as found`.execute(db);
  return rows[0]?.found ?? false;
}
