import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "../../db/database.ts";
import { throughPort } from "./pgBouncer.ts";
import { adminQuery, roleUrl as roleUrlOf, type TestRole } from "./postgresServer.ts";

export { adminQuery };

export type TestDatabase = {
  name: string;
  /** The owner's connection (the embedded server's superuser): what tests and the indexer use. */
  url: string;
  /** The API's and worker's: the runtime role's on Debian's server, else `url`. */
  runtimeUrl: string;
  db: Db;
  drop: () => Promise<void>;
};

/**
 * A database of its own for one test (or file), cloned from the migrated template (~50 ms).
 * `drop()` closes the pool and removes it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("postgresAdminUrl");
  const roles = inject("postgresRoles");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await adminQuery(
    adminUrl,
    `create database ${name} template remit_template${roles ? ` owner ${roles.owner.name}` : ""}`,
  );
  const adminOfDatabase = adminUrl.replace(/\/postgres$/, `/${name}`);
  // Under `npm run test:pooler` the roles reach their database through PgBouncer (session mode).
  const pooler = inject("postgresPoolerPort");
  const roleUrl = (role: TestRole) => {
    const url = roleUrlOf(adminOfDatabase, role);
    return pooler ? throughPort(url, pooler) : url;
  };
  const url = roles ? roleUrl(roles.owner) : adminOfDatabase;
  const db = createDb(url, { max: 5 });
  return {
    name,
    url,
    runtimeUrl: roles ? roleUrl(roles.runtime) : url,
    db,
    drop: async () => {
      await db.destroy();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Every row of every table, as text: what a `pg_dump` of the data would show. */
export async function dumpAsText(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    let dump = "";
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`select t::text as row from ${name} t`);
      dump += `${name}\n${rows.map((r) => r.row).join("\n")}\n`;
    }
    return dump;
  } finally {
    await client.end();
  }
}
