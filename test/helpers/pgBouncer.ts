import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../../internal/process.ts";
import type { TestRole } from "./postgresServer.ts";

/** Debian's `pgbouncer` package (scripts/ensure-debian-postgres.sh installs it). */
export const PGBOUNCER = "/usr/sbin/pgbouncer";

export type PgBouncer = { port: number; stop: () => Promise<void> };

/**
 * The PgBouncer settings docs/operations.md ("Pooler") gives a DBA, for a server on
 * `serverPort`: every database of it (`*`), the roles of `roles` authenticated by SCRAM against
 * the auth file, `pool_mode` as asked (session, the one Remit runs on; transaction, the one
 * `npm start` refuses), a pool big enough for every connection a replica opens (a session
 * pooler holds a server connection per client: it saves no server connections, it caps them).
 */
export function pgBouncerIni(options: {
  serverPort: number;
  port: number;
  mode: "session" | "transaction";
  authFile: string;
}): string {
  return `[databases]
* = host=127.0.0.1 port=${options.serverPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${options.port}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${options.authFile}
pool_mode = ${options.mode}
max_client_conn = 1000
default_pool_size = 200
max_db_connections = 0
server_reset_query = DISCARD ALL
ignore_startup_parameters = statement_timeout
`;
}

/**
 * Starts PgBouncer on a port of its own in front of the Postgres server on `serverPort`, for
 * `roles` (their passwords in its auth file: it logs in to the server with them too). As root
 * it runs as the OS user `postgres` (it refuses root), as the test server does.
 */
export async function startPgBouncer(options: {
  serverPort: number;
  roles: TestRole[];
  mode: "session" | "transaction";
}): Promise<PgBouncer> {
  const dir = await mkdtemp(path.join(tmpdir(), "remit-pgbouncer-"));
  await chmod(dir, 0o755);
  const authFile = path.join(dir, "userlist.txt");
  await writeFile(
    authFile,
    options.roles.map((role) => `"${role.name}" "${role.password}"\n`).join(""),
    { mode: 0o644 },
  );
  const port = await freePort();
  const ini = path.join(dir, "pgbouncer.ini");
  await writeFile(
    ini,
    pgBouncerIni({ serverPort: options.serverPort, port, mode: options.mode, authFile }),
    { mode: 0o644 },
  );
  let output = "";
  const child = spawnLogged(PGBOUNCER, [...(userInfo().uid === 0 ? ["-u", "postgres"] : []), ini], {
    onLine: (line) => (output += `${line}\n`),
    stopWithParent: "SIGTERM",
  });
  const role = options.roles[0];
  if (!role) throw new Error("startPgBouncer: no role to log in with");
  try {
    await waitFor(
      "pgbouncer to accept connections",
      async () => {
        if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${output}`);
        return canConnect(`postgres://${role.name}:${role.password}@127.0.0.1:${port}/postgres`);
      },
      { timeoutMs: 20_000, intervalMs: 50 },
    );
  } catch (error) {
    await stopProcess(child, "SIGKILL");
    throw error;
  }
  return {
    port,
    stop: async () => {
      // SIGTERM: PgBouncer 1.18's immediate shutdown (SIGINT waits for every client to leave).
      await stopProcess(child, "SIGTERM", 10_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `url` with its host's port replaced: the same role and database through the pooler. */
export const throughPort = (url: string, port: number): string => {
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.toString();
};
