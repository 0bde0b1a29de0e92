import { describe, expect, test } from "vitest";
import {
  backupArgs,
  libpqEnv,
  restoreArgs,
  toolMajorVersion,
  toolVersionProblem,
} from "./backup.ts";

describe("remit db backup and restore: the tools' arguments and versions", () => {
  test("reads the major version of pg_dump --version, Debian's and upstream's", () => {
    expect(toolMajorVersion("pg_dump (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)\n")).toBe(15);
    expect(toolMajorVersion("pg_restore (PostgreSQL) 18.1")).toBe(18);
    expect(toolMajorVersion("something else")).toBeNull();
  });

  test("a tool older than the server is refused, naming the one to use; newer or equal is fine", () => {
    expect(toolVersionProblem("pg_dump", "pg_dump (PostgreSQL) 14.9", 15)).toMatch(
      /^pg_dump is 14 and the server is 15: .*\/usr\/lib\/postgresql\/15\/bin\/pg_dump; --pg-dump or PG_DUMP/,
    );
    expect(toolVersionProblem("pg_dump", "pg_dump (PostgreSQL) 15.14", 15)).toBeNull();
    expect(toolVersionProblem("pg_restore", "pg_restore (PostgreSQL) 18.1", 15)).toBeNull();
    expect(toolVersionProblem("pg_dump", "nonsense", 15)).toMatch(
      /could not read pg_dump's version/,
    );
  });

  test("the URL becomes libpq's environment: no password on the command line", () => {
    const env = libpqEnv("postgres://remit_owner:p%40ss@db.internal:6432/remit?sslmode=require");
    expect(env).toEqual({
      PGHOST: "db.internal",
      PGPORT: "6432",
      PGUSER: "remit_owner",
      PGPASSWORD: "p@ss",
      PGDATABASE: "remit",
      PGSSLMODE: "require",
    });
    const args = [...backupArgs("/backups/x.dump", ["pg_trgm"]), ...restoreArgs("x.dump", "remit")];
    expect(args.join(" ")).not.toContain("p@ss");
  });

  test("custom format, Remit's schemas and their extensions; restore all or nothing as the owner", () => {
    expect(backupArgs("x.dump", ["btree_gin", "pg_trgm"])).toEqual([
      "--format=custom",
      "--file=x.dump",
      "--schema=app",
      "--schema=graphile_worker",
      "--extension=btree_gin",
      "--extension=pg_trgm",
    ]);
    expect(restoreArgs("x.dump", "remit")).toEqual([
      "--no-owner",
      "--single-transaction",
      "--exit-on-error",
      "--dbname=remit",
      "x.dump",
    ]);
  });
});
