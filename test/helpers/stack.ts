import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CapturedEmail } from "../../api/dev/outbox.ts";
import { waitFor } from "../../internal/process.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import { chainUrl } from "./chain.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { startApi, startIndexer, startWorker, type TestProcess } from "./processes.ts";

export type TestStack = {
  database: TestDatabase;
  db: TestDatabase["db"];
  /** `opsUrl`: its loopback operational listener (`/metrics`, the email capture). */
  api: TestProcess & { url: string; port: number; opsUrl: string; opsPort: number };
  worker?: TestProcess;
  indexer?: TestProcess & { schema: string; port: number };
  mnemonic: string;
  dataDir: string;
  /** Another worker on this stack (the caller stops it), with `env` on top of the stack's. */
  startWorker: (env?: NodeJS.ProcessEnv) => TestProcess;
  /** Another API replica on this stack's database, seed and DATA_DIR (the caller stops it). */
  startApi: (options?: { keepManagedWallets?: boolean }) => ReturnType<typeof startApi>;
  /** fetch against the API: `request("/api/invoices", { method: "POST", json: {...} })`. */
  request: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  /** The captured email with this id, once it has arrived in the outbox. */
  waitForEmail: (predicate: (email: CapturedEmail) => boolean) => Promise<CapturedEmail>;
  outbox: () => Promise<CapturedEmail[]>;
  stop: () => Promise<void>;
};

/**
 * The service's processes on a database of their own: the API, and the worker and indexer
 * when asked for, sharing one seed and one DATA_DIR (emails land in its outbox).
 */
export async function startStack(
  options: {
    worker?: boolean;
    indexer?: boolean;
    env?: NodeJS.ProcessEnv;
    /** The workers' RPC, when not the chain itself: a proxy that can be cut, say. */
    workerRpcUrl?: string;
    /** Another chain than this vitest worker's anvil (one with 1 s blocks, say), from block 0. */
    rpcUrl?: string;
    /** A database of the test's own (a restored backup, say) instead of a fresh copy. */
    database?: TestDatabase;
    /** The service seed of an earlier stack on that database; a fresh one otherwise. */
    mnemonic?: string;
    /** The indexer's way to the database, when not `database.url`: a proxy that fails it, say. */
    indexerDatabaseUrl?: string;
  } = {},
): Promise<TestStack> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = await mkdtemp(path.join(tmpdir(), "remit-stack-"));
  const mnemonic = options.mnemonic ?? newMnemonic();
  // The API and the worker as the runtime role (on Debian's server: `npm run test:postgres`),
  // the indexer as the owner, as docs/operations.md runs them.
  const base = {
    databaseUrl: database.runtimeUrl,
    rpcUrl: options.rpcUrl ?? chainUrl(),
    mnemonic,
    env: { DATA_DIR: dataDir, ...options.env },
  };
  const [api, indexer] = await Promise.all([
    // The stack's worker keeps the managed-wallet pool full, when it has one.
    startApi({ ...base, keepManagedWallets: !options.worker }),
    options.indexer
      ? startIndexer(
          { ...base, databaseUrl: options.indexerDatabaseUrl ?? database.url },
          options.rpcUrl === undefined ? undefined : { startBlock: 0 },
        )
      : undefined,
  ]);
  // Every worker sends its emails through this API's capture endpoint (one outbox).
  const newWorker = (env: NodeJS.ProcessEnv = {}) =>
    startWorker({
      ...base,
      rpcUrl: options.workerRpcUrl ?? base.rpcUrl,
      env: {
        ...base.env,
        PORT: String(api.port),
        OPS_PORT: String(api.opsPort),
        BASE_URL: api.url,
        PAY_URL: api.url,
        ...env,
      },
    });
  const worker = options.worker ? newWorker() : undefined;

  // Read where this machine always may, whatever the stack's settings say about the public port.
  const outbox = async () => {
    const response = await fetch(`${api.opsUrl}/dev/outbox`);
    const { messages } = (await response.json()) as { messages: { id: string }[] };
    return Promise.all(
      messages.map(
        async ({ id }) =>
          JSON.parse(
            await readFile(path.join(dataDir, "outbox", `${id}.json`), "utf8"),
          ) as CapturedEmail,
      ),
    );
  };

  return {
    database,
    db: database.db,
    api,
    worker,
    indexer,
    mnemonic,
    dataDir,
    startWorker: newWorker,
    startApi: (replica = {}) => startApi({ ...base, ...replica }),
    request: (requestPath, init = {}) => {
      const { json, ...rest } = init;
      return fetch(`${api.url}${requestPath}`, {
        ...rest,
        ...(json !== undefined
          ? {
              body: JSON.stringify(json),
              headers: { "content-type": "application/json", ...(rest.headers ?? {}) },
            }
          : {}),
      });
    },
    outbox,
    waitForEmail: (predicate) =>
      waitFor("the email in the outbox", async () => (await outbox()).find(predicate), {
        timeoutMs: 90_000,
        intervalMs: 100,
      }),
    stop: async () => {
      await Promise.all([api.stop(), worker?.stop(), indexer?.stop()]);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
