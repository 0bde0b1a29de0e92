import pg from "pg";
import type { Env } from "../internal/env.ts";
import { StartRefusedError } from "./startChecks.ts";

/**
 * Server backend pids seen by two client connections to one URL: `first` and `again` by client
 * A, before and after client B opened a transaction and read its own (`other`) while A stayed
 * connected.
 */
export type SessionProbe = { first: number; other: number; again: number };

/**
 * Whether each client connection kept a server session of its own. Directly, or through a
 * pooler in session mode, a connection is one backend for its life: A's pid never changes and
 * B's is never A's. A pooler in transaction (or statement) mode hands a backend back when a
 * transaction ends: B, opening one just after A's statement, gets A's backend (PgBouncer
 * reuses the last one released first), and A's next statement runs on another one while B
 * holds it. Either sign proves the pooling; neither can happen with sessions, so a direct
 * connection is never refused.
 *
 * @example sharesSessions({ first: 10, other: 10, again: 11 }) // true: transaction pooling
 */
export function sharesSessions(probe: SessionProbe): boolean {
  return probe.first !== probe.again || probe.other === probe.first;
}

/** Why Remit refuses a transaction pooler, for the operator (docs/operations.md, "Pooler"). */
export const transactionPoolerMessage = (setting: string): string =>
  `${setting} reaches Postgres through a pooler in transaction or statement mode (one connection's statements ran on different server sessions): Remit needs a server session per connection, for LISTEN/NOTIFY (graphile-worker's wake-up on a new job, the indexer's deposit addresses, the payment pages' status) and session advisory locks (a sweep's lock, held across transactions on one connection). Set pool_mode = session in PgBouncer (or connect directly); docs/operations.md, "Pooler"`;

/**
 * Probes `url` with two connections (a few milliseconds, before anything else touches the
 * database) and returns the reason to refuse it, or null when every connection keeps its
 * session. A statement pooler refuses the probe's transaction block: that is named too.
 */
export async function transactionPoolerProblem(
  url: string,
  setting = "DATABASE_URL",
): Promise<string | null> {
  const a = new pg.Client({ connectionString: url });
  const b = new pg.Client({ connectionString: url });
  const pid = async (client: pg.Client) =>
    (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid ?? -1;
  try {
    await a.connect();
    await b.connect();
    const first = await pid(a);
    await b.query("begin");
    const other = await pid(b);
    const again = await pid(a);
    await b.query("commit");
    return sharesSessions({ first, other, again }) ? transactionPoolerMessage(setting) : null;
  } catch (error) {
    if (/statement pooling/i.test((error as Error).message))
      return transactionPoolerMessage(setting);
    throw error;
  } finally {
    await Promise.all([a.end().catch(() => {}), b.end().catch(() => {})]);
  }
}

/**
 * `npm start`'s check of the operator's URLs (the embedded server is never pooled): refuses,
 * naming the setting and why, before the migrations or any process touch the database.
 */
export async function refuseTransactionPooler(
  env: Pick<Env, "DATABASE_URL" | "MIGRATION_DATABASE_URL">,
): Promise<void> {
  for (const setting of ["DATABASE_URL", "MIGRATION_DATABASE_URL"] as const) {
    const url = env[setting];
    const problem = url ? await transactionPoolerProblem(url, setting) : null;
    if (problem) throw new StartRefusedError(problem);
  }
}
