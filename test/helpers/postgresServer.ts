import { readdir } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Binaries } from "../../db/embeddedPostgres.ts";
import { rolesSql } from "../../db/runtimeRole.ts";

/** A login role of the test server, and its password. */
export type TestRole = { name: string; password: string };

/** Where Debian's `postgresql` package puts its servers, one directory per major version. */
const DEBIAN_POSTGRES = "/usr/lib/postgresql";

/**
 * The newest Debian-packaged server's binaries (`apt-get install postgresql`, which .ci/run
 * does when it is missing): the tests' second, separate Postgres, not the npm package's 18.
 */
export async function debianPostgresBinaries(): Promise<Binaries> {
  const versions = (await readdir(DEBIAN_POSTGRES).catch(() => []))
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  if (!newest)
    throw new Error(
      `REMIT_TEST_POSTGRES=debian: no server under ${DEBIAN_POSTGRES} (apt-get install postgresql)`,
    );
  const bin = path.join(DEBIAN_POSTGRES, newest, "bin");
  return { initdb: path.join(bin, "initdb"), postgres: path.join(bin, "postgres") };
}

/** Runs one statement on `url` (a superuser's connection in the tests). */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `url` logged in as `role` instead. */
export const roleUrl = (url: string, role: TestRole): string => {
  const parsed = new URL(url);
  parsed.username = role.name;
  parsed.password = role.password;
  return parsed.toString();
};

/**
 * The owner and runtime roles, made as an operator makes them: the SQL `remit db roles` prints
 * (its database statement left out: the tests' template is made by the setup).
 */
export async function createTestRoles(
  adminUrl: string,
): Promise<{ owner: TestRole; runtime: TestRole }> {
  const owner = { name: "remit_owner", password: "owner-secret" };
  const runtime = { name: "remit_app", password: "runtime-secret" };
  const sql = rolesSql({ owner: owner.name, runtime: runtime.name, database: "unused" })
    .replace("change-me-owner", owner.password)
    .replace("change-me-runtime", runtime.password);
  for (const statement of sql.split(";\n").filter((line) => /^create role/.test(line)))
    await adminQuery(adminUrl, statement);
  return { owner, runtime };
}
