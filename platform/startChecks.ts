import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../internal/env.ts";
import { portInUse } from "../internal/ports.ts";
import { isAlive, owningSupervisor } from "../internal/process.ts";

/** The worker's metrics port: WORKER_METRICS_PORT, else 9464 (0 turns the listener off). */
export const DEFAULT_WORKER_METRICS_PORT = 9464;
export const workerMetricsPort = (env: Pick<Env, "WORKER_METRICS_PORT">) =>
  env.WORKER_METRICS_PORT ?? DEFAULT_WORKER_METRICS_PORT;

/** One port `npm start` will listen on, and the setting that chooses it. */
/** The API's loopback operational listener: OPS_PORT, else 9465 (0 turns it off). */
export const DEFAULT_OPS_PORT = 9465;
export const opsPort = (env: Pick<Env, "OPS_PORT">) => env.OPS_PORT ?? DEFAULT_OPS_PORT;

export type Listener = { setting: string; port: number; host: string; what: string };

type ListenerSettings = Pick<
  Env,
  | "PORT"
  | "HOST"
  | "INDEXER_PORT"
  | "INDEXER_HOST"
  | "WORKER_METRICS_PORT"
  | "OPS_PORT"
  | "EMBEDDED_PG_PORT"
  | "ANVIL_PORT"
  | "DATABASE_URL"
  | "PROCESSES"
  | "chainMode"
>;

/**
 * Every port this `npm start` will listen on (docs/operations.md, "Listeners"): the embedded
 * Postgres without DATABASE_URL, anvil unless following real Base, and each child it runs.
 */
export function listeners(env: ListenerSettings): Listener[] {
  const list: Listener[] = [];
  if (!env.DATABASE_URL)
    list.push({
      setting: "EMBEDDED_PG_PORT",
      port: env.EMBEDDED_PG_PORT,
      host: "127.0.0.1",
      what: "the embedded Postgres",
    });
  if (env.chainMode !== "mainnet")
    list.push({
      setting: "ANVIL_PORT",
      port: env.ANVIL_PORT,
      host: "127.0.0.1",
      what: "the local chain, anvil",
    });
  if (env.PROCESSES.includes("api")) {
    list.push({ setting: "PORT", port: env.PORT, host: env.HOST, what: "the API" });
    const ops = opsPort(env);
    if (ops !== 0)
      list.push({
        setting: "OPS_PORT",
        port: ops,
        host: "127.0.0.1",
        what: "the API's operational listener",
      });
  }
  if (env.PROCESSES.includes("indexer"))
    list.push({
      setting: "INDEXER_PORT",
      port: env.INDEXER_PORT,
      host: env.INDEXER_HOST,
      what: "the indexer",
    });
  const metrics = workerMetricsPort(env);
  if (env.PROCESSES.includes("worker") && metrics !== 0)
    list.push({
      setting: "WORKER_METRICS_PORT",
      port: metrics,
      host: env.HOST,
      what: "the worker's metrics",
    });
  return list;
}

/** Settings that give two of our own listeners one port: the second would fail to bind. */
export function sharedPorts(list: Listener[]): string[] {
  const problems: string[] = [];
  list.forEach((listener, index) => {
    const first = list.findIndex((other) => other.port === listener.port);
    if (first !== index)
      problems.push(
        `${listener.setting} and ${list[first]?.setting} are both ${listener.port}: give each a port of its own`,
      );
  });
  return problems;
}

/** What to tell the operator about ports already taken, naming the setting to change. */
export function describeTakenPorts(taken: Listener[]): string[] {
  return taken.map(
    (listener) =>
      `port ${listener.port} on ${listener.host} (${listener.setting}, ${listener.what}) is already in use, by another Remit or another program: stop it, or set ${listener.setting} to a free port`,
  );
}

export class StartRefusedError extends Error {
  override name = "StartRefusedError";
}

/**
 * Refuses a start whose ports are taken, before anything is started or written. Otherwise a
 * server of ours failing to bind would be mistaken for the one answering there: the embedded
 * Postgres of another Remit on the same machine, say, which this one would then migrate and
 * write to. (The servers check their own identity once up as well: a port taken between this
 * check and their start is refused too.)
 */
export async function refuseTakenPorts(env: ListenerSettings): Promise<void> {
  const list = listeners(env);
  const shared = sharedPorts(list);
  if (shared.length) throw new StartRefusedError(shared.join("; "));
  const inUse = await Promise.all(list.map((listener) => portInUse(listener.port, listener.host)));
  const taken = list.filter((_, index) => inUse[index]);
  if (taken.length) throw new StartRefusedError(describeTakenPorts(taken).join("; "));
}

/**
 * Refuses a start on a DATA_DIR whose database or chain another running `npm start` serves:
 * two supervisors of one cluster would stop, restart and migrate it behind each other's back.
 * Checked before the ports, so that this case is named for what it is.
 */
export async function refuseDataDirInUse(dataDir: string): Promise<void> {
  const pidFiles = [
    path.join(dataDir, "postgres", "postmaster.pid"),
    path.join(dataDir, "chain", "anvil.pid"),
    path.join(dataDir, "chain-fork", "anvil.pid"),
  ];
  for (const file of pidFiles) {
    const pid = Number((await readFile(file, "utf8").catch(() => "")).split("\n")[0]);
    if (!pid || !isAlive(pid)) continue;
    const owner = await owningSupervisor(pid);
    if (owner)
      throw new StartRefusedError(
        `DATA_DIR ${dataDir} is in use by another running npm start (pid ${owner}); stop it first, or give this one a DATA_DIR of its own (and other ports)`,
      );
  }
}
