import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDb } from "../../db/database.ts";
import { ensureDatabase, startEmbeddedPostgres } from "../../db/embeddedPostgres.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import { freePort } from "../../internal/freePort.ts";
import { projectRoot } from "../../internal/projectRoot.ts";
import { runCli } from "./run.ts";

const run = promisify(execFile);

/**
 * `remit merchants add` without DATABASE_URL reaches the embedded database of DATA_DIR, as
 * `npm start` lays it out (`$DATA_DIR/postgres`, database `remit`): the running server, or the
 * stopped cluster, which the command starts and stops again. (With DATABASE_URL, and the key at
 * work against the API: test/accounts/keysMode.test.ts.)
 */
describe("remit merchants add on the embedded database of DATA_DIR", () => {
  let dataDir: string;
  let cluster: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-cli-data-"));
    cluster = path.join(dataDir, "postgres");
    // What `npm start` leaves behind: an initialised, migrated cluster.
    const postgres = await startEmbeddedPostgres({
      dataDir: cluster,
      port: await freePort(),
      ephemeral: true,
    });
    await ensureDatabase(postgres.url("postgres"), "remit");
    // In a process of its own: graphile-worker's migration leaves a pooled connection open,
    // which stopping the server would then break in this one.
    await run(process.execPath, [
      "--import",
      "tsx",
      "-e",
      `await (await import(${JSON.stringify(path.join(projectRoot, "db/migrate.ts"))})).migrate(${JSON.stringify(postgres.url("remit"))})`,
    ]);
    await postgres.stop();
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The stored hash of `key`'s merchant, read with the server up on `url`. */
  const merchantOfKey = async (url: string, key: string) => {
    const db = createDb(url, { max: 1 });
    try {
      return await db
        .selectFrom("app.api_keys as k")
        .innerJoin("app.merchants as m", "m.id", "k.merchant_id")
        .select(["m.email", "m.claimed_at", "m.name"])
        .where("k.key_hash", "=", hashSecretToken(key))
        .executeTakeFirst();
    } finally {
      await db.destroy();
    }
  };
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: "" });

  test("the service stopped: the command starts the cluster, adds the merchant, stops it", async () => {
    const added = await runCli(
      ["merchants", "add", "--email", "Stopped@Example.com", "--name", "Stopped Shop"],
      { env: env() },
    );
    expect([added.code, added.stderr]).toEqual([0, expect.stringContaining("stopped@example.com")]);
    const key = added.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(key).toMatch(/^remit_sk_/);

    const postgres = await startEmbeddedPostgres({ dataDir: cluster, port: await freePort() });
    try {
      expect(await merchantOfKey(postgres.url("remit"), key)).toEqual({
        email: "stopped@example.com",
        claimed_at: expect.any(Date),
        name: "Stopped Shop",
      });

      // The service running: the command uses its server (the port in postmaster.pid).
      const running = await runCli(["merchants", "add", "--email", "running@example.com"], {
        env: env(),
      });
      expect(running.code).toBe(0);
      const second = running.stdout.trimEnd().split("\n").at(-1) ?? "";
      expect(await merchantOfKey(postgres.url("remit"), second)).toMatchObject({
        email: "running@example.com",
      });
      // A name already registered to another merchant is refused.
      const taken = await runCli(
        ["merchants", "add", "--email", "copycat@example.com", "--name", "stopped  SHOP"],
        { env: env() },
      );
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain("already the registered name of another merchant");
      expect(taken.stdout).toBe("");
    } finally {
      await postgres.stop();
    }
  });

  test("no cluster in DATA_DIR: says how to get one", async () => {
    const empty = await mkdtemp(path.join(tmpdir(), "remit-cli-empty-"));
    try {
      const refused = await runCli(["merchants", "add", "--email", "a@example.com"], {
        env: { DATA_DIR: empty, DATABASE_URL: "" },
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("npm start");
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
