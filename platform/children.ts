import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { projectRoot } from "../internal/projectRoot.ts";
import { DEPOSIT_ACCOUNT, extendedPublicKey } from "../keys/hdWallet.ts";
import { relayerAccount } from "../keys/relayer.ts";
import type { ChildSpec } from "./supervisor.ts";

// Ponder's package exports only its ESM entry (dist/esm/index.js); its CLI and package.json sit
// at fixed places relative to it.
const ponderEntry = fileURLToPath(import.meta.resolve("ponder"));
const ponderBin = path.join(path.dirname(ponderEntry), "bin/ponder.js");

export const ponderVersion = (
  JSON.parse(
    readFileSync(path.resolve(path.dirname(ponderEntry), "../../package.json"), "utf8"),
  ) as {
    version: string;
  }
).version;

/** Every child is watched by this preload: it stops itself if its supervisor dies. */
const watchdog = ["--import", path.join(projectRoot, "platform/exitWithParent.mjs")];

/**
 * V8's young generation, as the most MB one of its two semi-spaces may grow to, per process.
 * V8's default (16 MB, so up to 48 MB of young generation) is reached by every process during
 * start-up's burst of module loading and then kept while idle: about 40 MB a process, a third of
 * the stack's idle memory (docs/operations.md, "Memory"). A smaller young generation costs more
 * frequent, shorter scavenges; the API, which allocates per request, keeps the most.
 */
export const SEMI_SPACE_MB = { api: 4, worker: 2, indexer: 2 } as const;
const semiSpace = (mb: number) => `--max-semi-space-size=${mb}`;

/**
 * How a child runs one of our entry points (e.g. "server/main"): its bundle when `npm start`
 * runs from bundles (platform/launch.mjs sets REMIT_BUILD_DIR), else its TypeScript through
 * tsx (tests and benchmarks that start the processes themselves).
 */
export function entryArgs(entry: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const bundles = env.REMIT_BUILD_DIR;
  return bundles
    ? [path.join(bundles, `${entry}.mjs`)]
    : ["--import", "tsx", path.join(projectRoot, `${entry}.ts`)];
}

/** Settings every child shares; `npm start` resolves them before it starts any. */
export type ChildSettings = {
  /** The environment to pass on (the user's settings), before the resolved values below. */
  baseEnv: NodeJS.ProcessEnv;
  databaseUrl: string;
  rpcUrl: string;
  indexerSchema: string;
  /** The service seed: only the worker, which moves funds, receives it. */
  mnemonic: string;
  /** Seals webhook secrets at rest: only the API (seals) and the worker (signs) receive it. */
  webhookSecretKey: string;
};

/**
 * What every child gets. The seed and the relayer's key are taken out: only the worker, which
 * moves funds and derives managed wallets, receives them; the API gets the deposit addresses'
 * extended public key (apiSpec).
 */
function relayerAddressEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const relayer = relayerAccount({
    privateKey: env.RELAYER_PRIVATE_KEY,
    localChain: !env.BASE_RPC_URL,
  });
  return relayer && env.SWEEP !== "off" ? { RELAYER_ADDRESS: relayer.address } : {};
}

const sharedEnv = (settings: ChildSettings): NodeJS.ProcessEnv => {
  const {
    DEPOSIT_MNEMONIC: _seed,
    RELAYER_PRIVATE_KEY: _relayer,
    WEBHOOK_SECRET_KEY: _sealKey,
    WEBHOOK_SECRET_KEY_PREVIOUS: _previousSealKeys,
    ...env
  } = settings.baseEnv;
  return {
    // V8 keeps the compiled code of every module loaded (Ponder's, Vite's, viem's, ours) on
    // disk and reuses it at the next start: ~10 % less CPU for a start's module loading. Node's
    // own default place (module.enableCompileCache()); Node checks each entry against its source.
    NODE_COMPILE_CACHE: path.join(tmpdir(), "node-compile-cache"),
    ...env,
    // Their lines go to the supervisor, which parses them and writes them in its own format.
    LOG_FORMAT: "json",
    DATABASE_URL: settings.databaseUrl,
    CHAIN_RPC_URL: settings.rpcUrl,
    INDEXER_SCHEMA: settings.indexerSchema,
  };
};

export type IndexerSettings = ChildSettings & {
  port: number;
  host: string;
  pollingInterval: number;
  /** A WebSocket RPC for new blocks (BASE_WS_URL); without it Ponder polls `rpcUrl`. */
  wsUrl?: string;
  startBlock: number;
  /** Ponder's own log level; "warn" keeps routine progress out of the service's log. */
  logLevel?: string;
  /**
   * The RPC is a local anvil (simulated chain or fork), which has no rate limit: Ponder may
   * send it as many requests as it likes (LOCAL_RPC_FANOUT).
   */
  localRpc?: boolean;
};

/**
 * Ponder starts every RPC at a budget of 20 requests a second (INITIAL_MAX_RPS in its
 * rpc/index.js, raised by 5 % steps only after a second spent near the limit), made for metered
 * providers. On start it fetches the last 30 blocks (Base's finality depth) one by one, about two
 * requests each: 3 s of waiting on a warm local chain, for an anvil that answers each in a
 * millisecond. Listing the local URL this many times gives Ponder as many budgets.
 */
export const LOCAL_RPC_FANOUT = 8;

/**
 * The WebSocket URL the indexer subscribes to new blocks on: BASE_WS_URL, or, on a local anvil
 * (simulated or fork), anvil's own (it serves WebSocket on its HTTP port); none in mainnet mode
 * unless set, nor with BASE_WS_URL=off.
 *
 * @example indexerWsUrl(undefined, "http://127.0.0.1:8545", true) // "ws://127.0.0.1:8545"
 */
export function indexerWsUrl(
  setting: string | undefined,
  rpcUrl: string,
  localChain: boolean,
): string | undefined {
  if (setting === "off") return undefined;
  if (setting) return setting;
  return localChain ? rpcUrl.replace(/^http/, "ws") : undefined;
}

/**
 * From bundles (`npm start`), Ponder executes the indexing code platform/build.mjs bundled,
 * instead of building it with a Vite server at every start (indexer/prebuilt/register.mjs).
 */
const prebuiltIndexer = (env: NodeJS.ProcessEnv): string[] =>
  env.REMIT_BUILD_DIR && env.PONDER_BUILD !== "vite"
    ? ["--import", path.join(projectRoot, "indexer/prebuilt/register.mjs")]
    : [];

/** `ponder start` (never `ponder dev`, which drops tables) into the build's own schema. */
export function indexerSpec(settings: IndexerSettings): ChildSpec {
  return {
    name: "indexer",
    // Not SIGTERM: Ponder's build runs a Vite server, which answers SIGTERM with its own
    // process.exit() once its server closed, a few ms in, cutting short Ponder's shutdown
    // before it cleared its schema's lock (is_locked stayed 1, and the next indexer waited out
    // the 25 s heartbeat timeout). Vite does not listen to SIGINT; Ponder stops as cleanly on
    // either (docs/operations.md, "Stopping the indexer").
    stopSignal: "SIGINT",
    command: process.execPath,
    args: [
      ...watchdog,
      ...prebuiltIndexer(settings.baseEnv),
      semiSpace(SEMI_SPACE_MB.indexer),
      // Ponder's drizzle calls pg's client.query() while one is running, which pg deprecates
      // with a warning at every start; not ours to fix, and not worth an operator's attention.
      "--disable-warning=DeprecationWarning",
      ponderBin,
      "start",
      "--root",
      projectRoot,
      "--schema",
      settings.indexerSchema,
      "--views-schema",
      "indexer",
      "--port",
      String(settings.port),
      "--hostname",
      settings.host,
    ],
    env: {
      ...sharedEnv(settings),
      // Ponder's server prefers PORT over --port: give it its own.
      PORT: String(settings.port),
      PONDER_RPC_URL_8453: settings.rpcUrl,
      ...(settings.localRpc ? { PONDER_RPC_FANOUT: String(LOCAL_RPC_FANOUT) } : {}),
      PONDER_POLLING_INTERVAL: String(settings.pollingInterval),
      PONDER_WS_URL_8453: settings.wsUrl ?? "",
      PONDER_START_BLOCK: String(settings.startBlock),
      PONDER_TELEMETRY_DISABLED: "true",
      PONDER_LOG_LEVEL: settings.logLevel ?? "warn",
      ...(settings.baseEnv.REMIT_BUILD_DIR
        ? { REMIT_PONDER_BUILD: path.join(settings.baseEnv.REMIT_BUILD_DIR, "ponder") }
        : {}),
    },
  };
}

/** The webhook-secret keys, for the two processes that need them. */
const webhookKeyEnv = (settings: ChildSettings): NodeJS.ProcessEnv => ({
  WEBHOOK_SECRET_KEY: settings.webhookSecretKey,
  ...(settings.baseEnv.WEBHOOK_SECRET_KEY_PREVIOUS
    ? { WEBHOOK_SECRET_KEY_PREVIOUS: settings.baseEnv.WEBHOOK_SECRET_KEY_PREVIOUS }
    : {}),
});

/** The HTTP API (server/main.ts). */
export function apiSpec(settings: ChildSettings): ChildSpec {
  return {
    name: "api",
    command: process.execPath,
    args: [
      ...watchdog,
      semiSpace(SEMI_SPACE_MB.api),
      ...entryArgs("server/main", settings.baseEnv),
    ],
    env: {
      ...sharedEnv(settings),
      // Deposit addresses only: managed wallets are hardened, derived by the worker alone.
      DEPOSIT_XPUB: extendedPublicKey(settings.mnemonic, DEPOSIT_ACCOUNT),
      // For /health's relayer balance: the address, never the key.
      ...relayerAddressEnv(settings.baseEnv),
      ...webhookKeyEnv(settings),
    },
  };
}

/** The graphile-worker process (worker/main.ts). */
export function workerSpec(settings: ChildSettings): ChildSpec {
  return {
    name: "worker",
    command: process.execPath,
    args: [
      ...watchdog,
      semiSpace(SEMI_SPACE_MB.worker),
      ...entryArgs("worker/main", settings.baseEnv),
    ],
    env: {
      ...sharedEnv(settings),
      DEPOSIT_MNEMONIC: settings.mnemonic,
      ...webhookKeyEnv(settings),
      ...(settings.baseEnv.RELAYER_PRIVATE_KEY
        ? { RELAYER_PRIVATE_KEY: settings.baseEnv.RELAYER_PRIVATE_KEY }
        : {}),
    },
  };
}
