import type { ChildProcess } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import { inject } from "vitest";
import { createDb } from "../../db/database.ts";
import { freePort } from "../../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../../internal/process.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import {
  apiSpec,
  type ChildSettings,
  indexerSpec,
  indexerWsUrl,
  workerSpec,
} from "../../platform/children.ts";
import type { ChildSpec } from "../../platform/supervisor.ts";
import { topUpManagedWalletPool } from "../../worker/managedWalletPool.ts";
import { childEnv } from "./env.ts";

export type TestProcess = {
  process: ChildProcess;
  /** The process's output so far, for assertions and for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
};

/** Runs one of the service's processes exactly as `npm start` would, without the supervisor. */
export function startProcess(spec: ChildSpec): TestProcess {
  const lines: string[] = [];
  const child = spawnLogged(spec.command, spec.args, {
    // A test may ask a process for more (LOG_LEVEL in its env); info otherwise.
    env: { ...spec.env, LOG_LEVEL: spec.env.LOG_LEVEL ?? "info" },
    onLine: (line) => {
      lines.push(line);
      if (lines.length > 500) lines.shift();
    },
  });
  return {
    process: child,
    output: () => lines.join("\n"),
    stop: () => stopProcess(child, "SIGTERM", 10_000),
  };
}

export type Settings = Omit<
  ChildSettings,
  "baseEnv" | "indexerSchema" | "mnemonic" | "webhookSecretKey"
> & {
  indexerSchema?: string;
  /** The service seed; a fresh one unless given (processes sharing a database share it). */
  mnemonic?: string;
  /** Seals webhook secrets; TEST_WEBHOOK_SECRET_KEY unless given, so an API and a worker agree. */
  webhookSecretKey?: string;
  /** Extra environment for the process. */
  env?: NodeJS.ProcessEnv;
};

const childSettings = ({ env, ...settings }: Settings): ChildSettings => ({
  baseEnv: childEnv(env),
  indexerSchema: "idx_test",
  ...settings,
  mnemonic: settings.mnemonic ?? newMnemonic(),
  webhookSecretKey: settings.webhookSecretKey ?? TEST_WEBHOOK_SECRET_KEY,
});

/** The webhook-secret key of test processes that are given none (32 bytes, hex). */
export const TEST_WEBHOOK_SECRET_KEY = "7e57".repeat(16);

/** Starts the Ponder indexer on a database and chain; resolves once it has caught up. */
export async function startIndexer(
  settings: Settings,
  /** `startBlock`: where to start on a chain of the test's own (not this worker's anvil). */
  options: { startBlock?: number } = {},
): Promise<TestProcess & { port: number; schema: string }> {
  const port = await freePort();
  const resolved = childSettings(settings);
  const indexer = startProcess(
    indexerSpec({
      ...resolved,
      port,
      host: "127.0.0.1",
      pollingInterval: 100,
      // The tests' anvil mines a block per transaction (no timer), so, as npm start does on such
      // a chain, the indexer polls (platform/start.ts); BASE_WS_URL still chooses WebSocket.
      wsUrl: indexerWsUrl(process.env.BASE_WS_URL, resolved.rpcUrl, false),
      // 0, or in fork mode the fork point: a fork of real Base has years of USDC below it.
      startBlock: options.startBlock ?? inject("indexerStartBlock"),
    }),
  );
  try {
    await waitFor(
      "the indexer to be ready",
      async () => {
        if (indexer.process.exitCode !== null) throw new Error("the indexer exited");
        return (await fetch(`http://127.0.0.1:${port}/ready`)).ok;
      },
      // Ponder loads ~2,500 modules before it answers: seconds on a quiet machine, over two
      // minutes once with a test run and three other jobs on two cores. An upper bound.
      { timeoutMs: 300_000, intervalMs: 100 },
    );
  } catch (error) {
    await indexer.stop();
    throw new Error(`${(error as Error).message}\n--- indexer output ---\n${indexer.output()}`);
  }
  return { ...indexer, port, schema: resolved.indexerSchema };
}

/** Managed wallets derived ahead for a test's API (npm start derives MANAGED_WALLET_POOL_SIZE). */
const TEST_WALLET_POOL = 20;

/**
 * What the worker and `npm start` do for an API: the pool of managed wallets (which the API
 * cannot derive) filled before it starts, and, unless `keep` is false (a worker of the stack
 * does it), kept full while it runs. Stops keeping it when the returned function is called.
 */
async function provideManagedWallets(databaseUrl: string, mnemonic: string, keep: boolean) {
  const db = createDb(databaseUrl, { max: 1 });
  await topUpManagedWalletPool(db, mnemonic, TEST_WALLET_POOL);
  let keeping = keep;
  const keeper = (async () => {
    while (keeping) {
      await delay(100);
      await topUpManagedWalletPool(db, mnemonic, TEST_WALLET_POOL).catch(() => 0);
    }
  })();
  return async () => {
    keeping = false;
    await keeper;
    await db.destroy();
  };
}

/**
 * Starts the API on a free port, its operational listener (OPS_PORT) on another; resolves once
 * it answers. `keepManagedWallets: false` leaves refilling the managed-wallet pool to a worker
 * of the caller's.
 */
export async function startApi(
  settings: Settings & { keepManagedWallets?: boolean },
): Promise<TestProcess & { url: string; port: number; opsUrl: string; opsPort: number }> {
  const { keepManagedWallets = true, ...rest } = settings;
  const resolved = childSettings(rest);
  const stopWallets = await provideManagedWallets(
    resolved.databaseUrl,
    resolved.mnemonic,
    keepManagedWallets,
  );
  // A free port is free only until someone listens on it: another test file's process (its own
  // API, Ponder, a capture server) may take it between freePort() and our listen. Our API then
  // exits with EADDRINUSE while the other server answers: CI once saw a 404 to
  // POST /api/invoices from such a neighbour. So the API counts as up only while our child runs
  // and /health answers with Remit's own report, and a lost port is tried again with new ones.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const opsPort = await freePort();
    const spec = apiSpec(resolved);
    const started = startProcess({
      ...spec,
      env: {
        ...spec.env,
        PORT: String(port),
        OPS_PORT: String(opsPort),
        BASE_URL: url,
        PAY_URL: url,
      },
    });
    const exited = () => started.process.exitCode !== null || started.process.signalCode !== null;
    const answers = async () => {
      const response = await fetch(`${url}/health`).catch(() => null);
      if (exited()) return true;
      if (!response || (response.status !== 200 && response.status !== 503)) return false;
      const report = (await response.json().catch(() => null)) as { status?: unknown } | null;
      return typeof report?.status === "string" && !exited();
    };
    try {
      await waitFor("the API to answer", answers, { timeoutMs: 120_000 });
    } catch (error) {
      await started.stop();
      await stopWallets();
      throw new Error(`${(error as Error).message}\n--- api output ---\n${started.output()}`);
    }
    if (!exited()) {
      const api = {
        ...started,
        stop: async () => {
          await started.stop();
          await stopWallets();
        },
      };
      return { ...api, url, port, opsUrl: `http://127.0.0.1:${opsPort}`, opsPort };
    }
    if (attempt >= 3 || !/EADDRINUSE/.test(started.output())) {
      await stopWallets();
      throw new Error(`the API exited before it answered\n--- api output ---\n${started.output()}`);
    }
  }
}

/** Starts the worker; resolves once it has announced itself in app.heartbeats. */
export function startWorker(settings: Settings): TestProcess {
  return startProcess(workerSpec(childSettings(settings)));
}
