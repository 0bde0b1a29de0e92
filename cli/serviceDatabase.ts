import { readFile } from "node:fs/promises";
import path from "node:path";
import { createDb, type Db } from "../db/database.ts";
import { startEmbeddedPostgres } from "../db/embeddedPostgres.ts";
import { fileExists } from "../internal/fileExists.ts";
import { freePort } from "../internal/freePort.ts";
import { isAlive } from "../internal/process.ts";
import { CliError, EXIT } from "./io.ts";

/** The database `npm start` creates in its embedded Postgres. */
const EMBEDDED_DATABASE = "remit";

export type ServiceDatabaseOptions = {
  /** --database-url or DATABASE_URL; none: the embedded database of `dataDir`. */
  databaseUrl?: string;
  /** DATA_DIR, as `npm start` resolves it (default ./.data). */
  dataDir: string;
};

/**
 * Runs `work` on the service's database, as every operator command reaches it: `DATABASE_URL`
 * when set; otherwise the embedded Postgres of `DATA_DIR` that `npm start` uses: the running
 * one (its port is in the cluster's postmaster.pid), or, when the service is stopped, the
 * cluster started for the command on a free loopback port and stopped after it. An operator on
 * the service's machine types nothing more.
 */
export async function withServiceDatabase<T>(
  options: ServiceDatabaseOptions,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  if (options.databaseUrl) return using(createDb(options.databaseUrl, { max: 2 }), work);
  const cluster = path.join(path.resolve(options.dataDir), "postgres");
  const port = await runningPort(cluster);
  if (port !== undefined) return using(createDb(embeddedUrl(port), { max: 2 }), work);
  if (!(await fileExists(path.join(cluster, "PG_VERSION"))))
    throw new CliError(
      `no database: ${cluster} holds no Postgres cluster. Start the service once (npm start) with this DATA_DIR, or set DATABASE_URL.`,
      EXIT.unavailable,
    );
  const postgres = await startEmbeddedPostgres({ dataDir: cluster, port: await freePort() });
  try {
    return await using(createDb(postgres.url(EMBEDDED_DATABASE), { max: 2 }), work);
  } finally {
    await postgres.stop();
  }
}

const embeddedUrl = (port: number) =>
  `postgres://postgres:postgres@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;

async function using<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** The port of the cluster's live postmaster (line 4 of postmaster.pid), if one runs. */
async function runningPort(cluster: string): Promise<number | undefined> {
  const lines = (
    await readFile(path.join(cluster, "postmaster.pid"), "utf8").catch(() => "")
  ).split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && isAlive(pid) && port > 0 ? port : undefined;
}
