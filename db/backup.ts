import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { createDb } from "./database.ts";
import { extensionsIn, schemaExists, serverMajorVersion } from "./queries/backupSource.ts";

/**
 * What `remit db backup` dumps (docs/operations.md, "Backups and restores"): Remit's record
 * (`app`: invoices, payments, refunds, webhook deliveries, emails, keys, and the migrations'
 * bookkeeping) and graphile-worker's queue (`graphile_worker`: a webhook or email due but not
 * yet sent is sent after a restore, once). Not the indexer's schemas (its build schema, the
 * `indexer` views, `ponder_sync`): they are derived from the chain, and the restored service
 * rebuilds them from START_BLOCK; every payment already counted is in `app.payments`.
 */
export const BACKUP_SCHEMAS = ["app", "graphile_worker"] as const;

/** A failure of a backup or a restore, with the message to show the operator. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** The major version in `pg_dump --version`'s answer ("pg_dump (PostgreSQL) 15.14 (Debian…)"). */
export function toolMajorVersion(versionLine: string): number | null {
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(versionLine);
  return match ? Number(match[1]) : null;
}

/**
 * Why `tool` (pg_dump or pg_restore) cannot work with a server of major version `server`, or
 * null: the tools read and write the formats of their own major version and older, so they must
 * be at least the server's (pg_dump refuses a newer server; use the server's own, e.g.
 * /usr/lib/postgresql/15/bin/pg_dump).
 *
 * @example toolVersionProblem("pg_dump", "pg_dump (PostgreSQL) 14.9", 15) // "pg_dump is 14 …"
 */
export function toolVersionProblem(tool: string, versionLine: string, server: number) {
  const major = toolMajorVersion(versionLine);
  if (major === null) return `could not read ${tool}'s version from "${versionLine.trim()}"`;
  if (major < server)
    return `${tool} is ${major} and the server is ${server}: use a ${tool} of major version ${server} or newer (the server's own, e.g. /usr/lib/postgresql/${server}/bin/${tool}; --${tool.replace("_", "-")} or ${tool.toUpperCase()})`;
  return null;
}

/** The connection of `url` as libpq's environment: no password on a command line (`ps`). */
export function libpqEnv(url: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  return {
    PGHOST: parsed.hostname,
    PGPORT: parsed.port || "5432",
    PGUSER: decodeURIComponent(parsed.username),
    PGPASSWORD: decodeURIComponent(parsed.password),
    PGDATABASE: decodeURIComponent(parsed.pathname.replace(/^\//, "")),
    ...Object.fromEntries(
      [...parsed.searchParams]
        .filter(([key]) => key === "sslmode")
        .map(([, v]) => ["PGSSLMODE", v]),
    ),
  };
}

/** pg_dump's arguments: custom format (compressed, restored selectively by pg_restore). */
export function backupArgs(file: string, extensions: readonly string[]): string[] {
  return [
    "--format=custom",
    `--file=${file}`,
    ...BACKUP_SCHEMAS.map((schema) => `--schema=${schema}`),
    ...extensions.map((extension) => `--extension=${extension}`),
  ];
}

/**
 * pg_restore's arguments: into `database` (without --dbname it would print SQL instead), all or
 * nothing, every object owned by the role restoring (the owner).
 */
export function restoreArgs(file: string, database: string): string[] {
  return ["--no-owner", "--single-transaction", "--exit-on-error", `--dbname=${database}`, file];
}

/** Runs `command`, resolving with its stdout; rejects with its stderr when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) =>
      reject(new BackupError(`could not run ${command}: ${error.message}`)),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** The server's major version, after checking `tool` can work with it. */
async function checkedServer(url: string, tool: string, command: string) {
  const db = createDb(url, { max: 1 });
  try {
    const server = await serverMajorVersion(db);
    const problem = toolVersionProblem(tool, await run(command, ["--version"]), server);
    if (problem) throw new BackupError(problem);
    return { db, server };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * `remit db backup`: pg_dump of BACKUP_SCHEMAS (and their extensions) as the owner, in custom
 * format, to `file`.
 */
export async function backupDatabase(options: { url: string; file: string; pgDump: string }) {
  const { db, server } = await checkedServer(options.url, "pg_dump", options.pgDump);
  try {
    const extensions = await extensionsIn(db, BACKUP_SCHEMAS);
    await run(options.pgDump, backupArgs(options.file, extensions), libpqEnv(options.url));
    const { size } = await stat(options.file);
    return { file: options.file, bytes: size, schemas: [...BACKUP_SCHEMAS], extensions, server };
  } finally {
    await db.destroy();
  }
}

/**
 * `remit db restore`: pg_restore of a `remit db backup` file into `url`'s database, which must
 * not have Remit's schemas yet (a new, empty database), in one transaction, as the owner.
 */
export async function restoreDatabase(options: { url: string; file: string; pgRestore: string }) {
  const { db, server } = await checkedServer(options.url, "pg_restore", options.pgRestore);
  try {
    if (await schemaExists(db, "app"))
      throw new BackupError(
        "the database already has Remit's schema app: restore into a new, empty database (remit db roles prints the SQL that creates one)",
      );
  } finally {
    await db.destroy();
  }
  const env = libpqEnv(options.url);
  await run(options.pgRestore, restoreArgs(options.file, env.PGDATABASE ?? ""), env);
  return { file: options.file, server };
}
