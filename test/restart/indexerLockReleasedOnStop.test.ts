import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import {
  exitCode,
  logLines,
  privatePorts,
  type Service,
  startService,
  waitForLine,
} from "../helpers/service.ts";

type PonderApp = { is_locked: 0 | 1; is_ready: 0 | 1; heartbeat_at: number };

/** The `_ponder_meta` app row of the indexer's build schema `schema`. */
async function ponderApp(databaseUrl: string, schema: string): Promise<PonderApp | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const meta = await client
      .query<{ value: PonderApp }>(
        `select value from ${pg.escapeIdentifier(schema)}._ponder_meta where key = 'app'`,
      )
      .catch(() => ({ rows: [] as { value: PonderApp }[] }));
    return meta.rows[0]?.value;
  } finally {
    await client.end();
  }
}

/** The indexer schema a start chose (its `indexer schema` log line). */
const schemaOf = (service: Service): string | undefined =>
  logLines(service.output()).find((line) => line.msg === "indexer schema")?.schema as
    | string
    | undefined;

// A restart of npm start must resume the index it left, and take its lock at once:
// - Vite (inside Ponder's build) exits the process on SIGTERM before Ponder's shutdown clears
//   the lock, and the next start waited out Ponder's 25 s heartbeat timeout without indexing
//   ("Schema is locked by a different Ponder app"); npm start stops the indexer with SIGINT.
// - anvil writes a new block 0 at every reload of the simulated chain's state, so block 0's
//   hash changed across about half the restarts: the schema (named after it) changed too, and
//   each such restart reindexed the chain into a new schema. Block 1 identifies the chain now.
describe("restarts of npm start", () => {
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
    // As a user stops it (SIGKILL to it alone skips the clean stop of anvil and postgres).
    if (service) {
      service.child.kill("SIGTERM");
      await exitCode(service);
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  test("resume the same index, whose lock the stopped indexer released and the next one takes at once", async () => {
    let firstSchema: string | undefined;
    // Three starts: each reload of anvil's state added a block 0, so one restart alone missed
    // the fault about half the time.
    for (let run = 0; run < 3; run++) {
      const startedAt = Date.now();
      service = startService(env);
      const current = service;
      // An upper bound for a machine three times slower than a busy CI runner.
      await waitForLine(current, /healthy in/, 150_000);
      const schema = schemaOf(current);
      expect(schema).toMatch(/^idx_[0-9a-f]{12}$/);
      if (run === 0) firstSchema = schema;
      else expect(schema, `start ${run + 1} chose another schema (a reindex)`).toBe(firstSchema);
      await waitFor(
        "the indexer to hold its lock, with a heartbeat of its own, and be live",
        async () => {
          const app = await ponderApp(databaseUrl, schema ?? "");
          return app?.is_locked === 1 && app.is_ready === 1 && app.heartbeat_at >= startedAt;
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      expect(current.output()).not.toMatch(/Schema is locked by a different Ponder app/);
      current.child.kill("SIGINT");
      expect(await exitCode(current)).toBe(0);
      service = undefined;
    }
  }, 900_000);
});
