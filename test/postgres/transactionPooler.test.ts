import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { transactionPoolerProblem } from "../../platform/sessionPoolerCheck.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { type PgBouncer, startPgBouncer, throughPort } from "../helpers/pgBouncer.ts";
import { exitCode, privatePorts, startService } from "../helpers/service.ts";

/**
 * PgBouncer in transaction mode hands a server session to another client between
 * transactions: LISTEN/NOTIFY and session advisory locks stop working. `npm start` tells it
 * from a session pooler or a direct connection (platform/sessionPoolerCheck.ts) and refuses,
 * naming why, before it migrates or starts anything.
 */
describe("a pooler in transaction mode", () => {
  let database: TestDatabase;
  const poolers: Record<"session" | "transaction", PgBouncer | undefined> = {
    session: undefined,
    transaction: undefined,
  };
  const roles = inject("postgresRoles");

  beforeAll(async () => {
    if (!roles) throw new Error("test/postgres/ runs under npm run test:postgres");
    database = await createTestDatabase();
    const serverPort = Number(new URL(inject("postgresAdminUrl")).port);
    for (const mode of ["session", "transaction"] as const)
      poolers[mode] = await startPgBouncer({
        serverPort,
        roles: [roles.owner, roles.runtime],
        mode,
      });
  });
  afterAll(async () => {
    await Promise.all(Object.values(poolers).map((pooler) => pooler?.stop()));
    await database?.drop();
  });

  const through = (url: string, mode: "session" | "transaction") =>
    throughPort(url, poolers[mode]?.port ?? 0);

  test("is told apart from a direct connection and from session mode, every time", async () => {
    for (let round = 0; round < 5; round++) {
      expect(await transactionPoolerProblem(database.runtimeUrl)).toBeNull();
      expect(await transactionPoolerProblem(through(database.runtimeUrl, "session"))).toBeNull();
      expect(await transactionPoolerProblem(through(database.runtimeUrl, "transaction"))).toMatch(
        /^DATABASE_URL reaches Postgres through a pooler in transaction or statement mode/,
      );
    }
  });

  test("npm start through it refuses, naming LISTEN/NOTIFY and advisory locks, before the migrations", async () => {
    const { env } = await privatePorts();
    const dataDir = await mkdtemp(path.join(tmpdir(), "remit-pooled-"));
    const service = startService({
      ...env,
      DATA_DIR: dataDir,
      DATABASE_URL: through(database.runtimeUrl, "transaction"),
      MIGRATION_DATABASE_URL: through(database.url, "transaction"),
    });
    expect(await exitCode(service)).toBe(1);
    expect(service.output()).toMatch(
      /failed to start: DATABASE_URL reaches Postgres through a pooler in transaction or statement mode .*LISTEN\/NOTIFY .*session advisory locks .*pool_mode = session/,
    );
    expect(service.output()).not.toMatch(/migrations applied|"msg":"started"/);
    await rm(dataDir, { recursive: true, force: true });
  });
});
