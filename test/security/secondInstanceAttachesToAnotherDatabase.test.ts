import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import {
  ForeignPostgresError,
  type RunningPostgres,
  startEmbeddedPostgres,
} from "../../db/embeddedPostgres.ts";
import { freePort } from "../../internal/freePort.ts";
import { createLogger } from "../../internal/logger.ts";
import { isAlive, stopProcess, waitFor } from "../../internal/process.ts";
import { superviseEmbeddedPostgres } from "../../platform/postgresSupervisor.ts";
import {
  exitCode,
  privatePorts,
  type Service,
  startService,
  waitForLine,
} from "../helpers/service.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/** The databases of the server at `adminUrl`, and when its postmaster started. */
async function serverState(adminUrl: string): Promise<{ databases: string[]; since: string }> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database order by datname",
    );
    const since = await client.query<{ since: string }>(
      "select pg_postmaster_start_time()::text as since",
    );
    return { databases: rows.map((row) => row.datname), since: since.rows[0]?.since ?? "" };
  } finally {
    await client.end();
  }
}

const dirs: string[] = [];
const newDir = async (name: string) => {
  const dir = await mkdtemp(path.join(tmpdir(), `remit-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// A second `npm start` on a machine where one already runs, with the default ports: its
// Postgres could not bind EMBEDDED_PG_PORT and exited, the first one's Postgres answered in its
// place (same password), and the second migrated, cleared and re-sealed the first one's
// database, then died on its webhook secrets ("sealed under key …, which is neither
// WEBHOOK_SECRET_KEY nor a previous key"). A second start now refuses before starting anything.
describe("a second npm start with the ports of a running one", () => {
  let first: Service | undefined;
  let apiUrl: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const ports = await privatePorts();
    apiUrl = ports.apiUrl;
    env = { ...ports.env, LOG_LEVEL: "info" };
    first = startService({ ...env, DATA_DIR: await newDir("first") });
    await waitForLine(first, /healthy in/);
  });
  afterAll(async () => {
    if (first) await stopProcess(first.child, "SIGINT", 30_000);
  });

  test("is refused, naming the settings to change, and the first one serves on untouched", async () => {
    const created = await fetch(`${apiUrl}/api/invoices`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(invoiceRequest()),
    });
    expect(created.status).toBe(201);
    const invoice = (await created.json()) as { invoice_id: string };
    const before = await (await fetch(`${apiUrl}/api/invoices/${invoice.invoice_id}`)).json();

    const secondDataDir = await newDir("second");
    const second = startService({ ...env, DATA_DIR: secondDataDir });
    expect(await exitCode(second)).toBe(1);
    for (const setting of [
      "EMBEDDED_PG_PORT",
      "ANVIL_PORT",
      "PORT",
      "INDEXER_PORT",
      "WORKER_METRICS_PORT",
    ])
      expect(second.output()).toMatch(new RegExp(`\\(${setting}, [^)]*\\) is already in use`));
    // It started nothing, so it reached nothing: no database, no chain, no child.
    expect(second.output()).not.toMatch(/embedded postgres running|migrations applied|"started"/);
    expect(existsSync(path.join(secondDataDir, "postgres"))).toBe(false);
    expect(existsSync(path.join(secondDataDir, "chain"))).toBe(false);

    expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
    const after = await (await fetch(`${apiUrl}/api/invoices/${invoice.invoice_id}`)).json();
    expect(after).toEqual(before);
    expect(first?.output()).not.toMatch(/exited unexpectedly/);
  });
});

// The layer below the port check, for a port taken between that check and the server's start.
describe("an embedded Postgres started on a port another Postgres holds", () => {
  const otherUrl = inject("postgresAdminUrl");
  const otherPort = Number(new URL(otherUrl).port);

  test("refuses the server answering there instead of connecting to it", async () => {
    const before = await serverState(otherUrl);
    const started = startEmbeddedPostgres({
      dataDir: path.join(await newDir("taken"), "postgres"),
      port: otherPort,
      ephemeral: true,
    });
    await expect(started).rejects.toThrow(ForeignPostgresError);
    await expect(started).rejects.toThrow(/set EMBEDDED_PG_PORT to a free port/);
    // The shared server's databases come and go with the other test files running beside this
    // one (the cause of a flaky comparison under load), so what is compared is what our start
    // could have changed: the same postmaster still answers, neither stopped nor restarted.
    expect((await serverState(otherUrl)).since).toBe(before.since);
  });

  test("a restart after an unexpected exit does not adopt the server that took its port meanwhile", async () => {
    const port = await freePort();
    // The other cluster exists already, so that it takes the port well within the restart delay.
    const otherDataDir = path.join(await newDir("other"), "postgres");
    await (
      await startEmbeddedPostgres({
        dataDir: otherDataDir,
        port: await freePort(),
        ephemeral: true,
      })
    ).stop();

    let foreign: (error: ForeignPostgresError) => void = () => {};
    const refused = new Promise<ForeignPostgresError>((resolve) => {
      foreign = resolve;
    });
    const ours = await superviseEmbeddedPostgres(
      { dataDir: path.join(await newDir("ours"), "postgres"), port, ephemeral: true },
      createLogger("postgres"),
      { onForeign: foreign, delayMs: () => 5_000 },
    );
    let other: RunningPostgres | undefined;
    try {
      const pid = ours.pid as number;
      process.kill(pid, "SIGKILL");
      await waitFor("our postmaster to be gone", async () => !isAlive(pid));
      other = await startEmbeddedPostgres({ dataDir: otherDataDir, port, ephemeral: true });
      const before = await serverState(other.url("postgres"));

      const error = await refused;
      expect(error.message).toMatch(/EMBEDDED_PG_PORT/);
      expect(ours.restarts).toBe(0);
      // The other server is still the one on the port, as it was.
      expect(await serverState(other.url("postgres"))).toEqual(before);
    } finally {
      await ours.stop();
      await other?.stop();
    }
  });
});
