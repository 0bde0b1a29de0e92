import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stopProcess, waitFor } from "../../internal/process.ts";
import {
  exitCode,
  privatePorts,
  type Service,
  startService,
  waitForLine,
} from "../helpers/service.ts";

type PonderApp = { is_locked: 0 | 1; is_ready: 0 | 1; heartbeat_at: number };

/** The indexer's `_ponder_meta` app row (its build's schema, not the `indexer` views). */
async function ponderApp(databaseUrl: string): Promise<PonderApp | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string }>(
      `select table_schema as schema from information_schema.tables
       where table_name = '_ponder_meta' and table_type = 'BASE TABLE'`,
    );
    const schema = rows[0]?.schema;
    if (!schema) return undefined;
    const meta = await client.query<{ value: PonderApp }>(
      `select value from ${pg.escapeIdentifier(schema)}._ponder_meta where key = 'app'`,
    );
    return meta.rows[0]?.value;
  } finally {
    await client.end();
  }
}

// A stopped indexer must leave its schema unlocked: Vite (inside Ponder's build) exits the
// process on SIGTERM before Ponder's shutdown clears the lock, and the next start then waited
// out Ponder's 25 s heartbeat timeout without indexing ("Schema is locked by a different
// Ponder app"). npm start stops the indexer with SIGINT, which only Ponder answers.
describe("restart of npm start", () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let databaseUrl: string;
  let service: Service | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-lock-"));
    const ports = await privatePorts();
    env = { DATA_DIR: dataDir, LOG_LEVEL: "info", ...ports.env };
    databaseUrl = `postgres://postgres:postgres@127.0.0.1:${ports.env.EMBEDDED_PG_PORT}/remit`;
  });
  afterAll(async () => {
    if (service) await stopProcess(service.child, "SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  test("the indexer releases its schema lock when stopped, and the next one takes it at once", async () => {
    service = startService(env);
    const first = service;
    await waitForLine(first, /ready in/);
    await waitFor(
      "the indexer to hold its lock and be live",
      async () => {
        const app = await ponderApp(databaseUrl);
        return app?.is_locked === 1 && app.is_ready === 1;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    first.child.kill("SIGINT");
    expect(await exitCode(first)).toBe(0);

    const restartedAt = Date.now();
    service = startService(env);
    const second = service;
    await waitForLine(second, /ready in/);
    // The new indexer holds the lock: a heartbeat of its own, after the restart.
    await waitFor(
      "the new indexer to take the lock",
      async () => {
        const app = await ponderApp(databaseUrl);
        return app?.is_locked === 1 && app.heartbeat_at >= restartedAt;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(second.output()).not.toMatch(/Schema is locked by a different Ponder app/);
    second.child.kill("SIGINT");
    expect(await exitCode(second)).toBe(0);
  }, 240_000);
});
