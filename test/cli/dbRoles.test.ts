import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, inject, test } from "vitest";
import { adminQuery } from "../helpers/database.ts";
import { runCli } from "./run.ts";

/**
 * What docs/operations.md tells a DBA to do, command by command: `remit db roles` prints the SQL
 * that creates the owner, the runtime role and the database; run as a superuser, it works; `remit
 * db migrate` with both URLs migrates as the owner and grants the runtime role, which can then
 * read the service's tables and cannot delete an invoice.
 */
describe("remit db roles, then remit db migrate", () => {
  const adminUrl = inject("postgresAdminUrl");
  const suffix = randomBytes(4).toString("hex");
  const names = { owner: `o_${suffix}`, runtime: `a_${suffix}`, database: `d_${suffix}` };
  const urlAs = (role: string, password: string) =>
    adminUrl
      .replace(/\/\/[^@]*@/, `//${role}:${password}@`)
      .replace(/\/postgres$/, `/${names.database}`);

  afterAll(async () => {
    await adminQuery(adminUrl, `drop database if exists ${names.database} with (force)`);
    await adminQuery(adminUrl, `drop role if exists ${names.runtime}`);
    await adminQuery(adminUrl, `drop role if exists ${names.owner}`);
  });

  test("the printed SQL creates both roles; migrate grants the runtime role what it needs, and no more", async () => {
    const roles = await runCli([
      "db",
      "roles",
      "--owner",
      names.owner,
      "--runtime",
      names.runtime,
      "--database",
      names.database,
    ]);
    expect(roles.code, roles.stderr).toBe(0);
    expect(roles.stdout).toContain(`create database "${names.database}" owner "${names.owner}";`);
    // A superuser runs it statement by statement (CREATE DATABASE cannot run in a transaction).
    for (const statement of roles.stdout.split(";\n").filter((s) => /^\s*[a-z]/m.test(s)))
      await adminQuery(adminUrl, statement.replace(/^--.*$/gm, ""));

    const ownerUrl = urlAs(names.owner, "change-me-owner");
    const runtimeUrl = urlAs(names.runtime, "change-me-runtime");
    const migrated = await runCli(["db", "migrate"], {
      env: { MIGRATION_DATABASE_URL: ownerUrl, DATABASE_URL: runtimeUrl },
    });
    expect(migrated.code, migrated.stderr).toBe(0);
    const answer = JSON.parse(migrated.stdout) as {
      applied: string[];
      runtime_role_granted: boolean;
    };
    expect(answer.applied).toContain("0045_runtime_role");
    expect(answer.runtime_role_granted).toBe(true);

    const runtime = new pg.Client({ connectionString: runtimeUrl });
    await runtime.connect();
    try {
      expect((await runtime.query("select count(*)::int as n from app.invoices")).rows).toEqual([
        { n: 0 },
      ]);
      await expect(runtime.query("delete from app.invoices")).rejects.toThrow(/permission denied/);
      await expect(runtime.query("create table app.mine (id int)")).rejects.toThrow(
        /permission denied/,
      );
    } finally {
      await runtime.end();
    }

    // Without a URL there is nothing to migrate: npm start migrates the embedded database.
    const bare = await runCli(["db", "migrate"], {
      env: { MIGRATION_DATABASE_URL: "", DATABASE_URL: "" },
    });
    expect(bare.code).toBe(64);
    expect(bare.stderr).toMatch(/set MIGRATION_DATABASE_URL/);
  });
});
