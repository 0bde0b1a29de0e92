import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createDb } from "../../db/database.ts";
import { databaseRoleProblem } from "../../db/runtimeRole.ts";
import { transactionPoolerProblem } from "../../platform/sessionPoolerCheck.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * Which server and roles the tests run on: the npm package's embedded Postgres 18 as its
 * superuser, or, under `npm run test:postgres` (REMIT_TEST_POSTGRES=debian), Debian's packaged
 * server with the owner and runtime roles of docs/operations.md — what the groups of tests that
 * command runs stand on; under `npm run test:pooler` (REMIT_TEST_POOLER=pgbouncer), through
 * PgBouncer in session mode.
 */
describe("the Postgres server under test", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  test("is the one asked for, and the API's and worker's connection is a runtime role there", async () => {
    const runtime = createDb(database.runtimeUrl, { max: 1 });
    try {
      const { rows } = await sql<{ version: number; user: string }>`
        select current_setting('server_version_num')::int as version, current_user as user`.execute(
        runtime,
      );
      const row = rows[0];
      if (process.env.REMIT_TEST_POSTGRES === "debian") {
        expect(row?.version).toBeLessThan(180_000);
        expect(row?.user).toBe(inject("postgresRoles")?.runtime.name);
        expect(await databaseRoleProblem(database.runtimeUrl)).toBeNull();
        expect(await databaseRoleProblem(database.url)).toMatch(/owns the service's tables/);
        // Through the pooler when asked, and `npm start`'s check accepts its session mode.
        const pooler = inject("postgresPoolerPort");
        const port = new URL(database.runtimeUrl).port;
        if (process.env.REMIT_TEST_POOLER) expect(port).toBe(String(pooler));
        else expect(pooler).toBeNull();
        expect(new URL(database.url).port).toBe(port);
        expect(await transactionPoolerProblem(database.runtimeUrl)).toBeNull();
      } else {
        expect(row?.version).toBeGreaterThanOrEqual(180_000);
        expect(database.runtimeUrl).toBe(database.url);
      }
    } finally {
      await runtime.destroy();
    }
  });
});
