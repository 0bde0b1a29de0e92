import type { ChildProcess } from "node:child_process";
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import {
  apiSpec,
  type ChildSettings,
  indexerSpec,
  indexerWsUrl,
  workerSpec,
} from "../platform/children.ts";

/**
 * The service's three processes on a benchmark environment (bench/environment.ts), started as
 * `npm start` would start them, with their error lines on stderr; resolves once the indexer is
 * ready and the API answers.
 */
export async function startServiceProcesses(
  settings: ChildSettings,
  ports: { indexer: number; apiUrl: string },
): Promise<{ stop: () => Promise<void> }> {
  const specs = [
    indexerSpec({
      ...settings,
      port: ports.indexer,
      host: "127.0.0.1",
      pollingInterval: 100,
      // New blocks over anvil's WebSocket, as npm start hears them on a local chain.
      wsUrl: indexerWsUrl(undefined, settings.rpcUrl, true),
      localRpc: true,
      startBlock: 0,
    }),
    apiSpec(settings),
    workerSpec(settings),
  ];
  const children: ChildProcess[] = specs.map((spec) =>
    spawnLogged(spec.command, spec.args, {
      env: spec.env,
      onLine: (line) => /error/i.test(line) && console.error(line),
    }),
  );
  const stop = async () => {
    await Promise.all(
      children.map((child, i) => stopProcess(child, specs[i]?.stopSignal ?? "SIGTERM")),
    );
  };
  try {
    await waitFor(
      "the indexer",
      async () => (await fetch(`http://127.0.0.1:${ports.indexer}/ready`)).ok,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    await waitFor("the API", async () => (await fetch(`${ports.apiUrl}/health`)).status > 0, {
      timeoutMs: 30_000,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

/**
 * The worker on a benchmark environment, its lines on stderr; resolves once its heartbeat is in
 * the database (its queues are running).
 */
export async function startBenchWorker(settings: ChildSettings, db: Db): Promise<ChildProcess> {
  const spec = workerSpec(settings);
  const worker = spawnLogged(spec.command, spec.args, {
    env: spec.env,
    onLine: (line) => console.error(line),
  });
  await waitFor(
    "the worker",
    async () =>
      (await sql`select 1 from app.heartbeats where component = 'worker'`.execute(db)).rows.length >
      0,
    { timeoutMs: 60_000 },
  ).catch(async (error) => {
    await stopProcess(worker);
    throw error;
  });
  return worker;
}
