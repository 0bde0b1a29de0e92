import { z } from "zod";

/**
 * The indexer's settings, parsed once from its environment with zod like every other process's
 * (internal/env.ts): `npm start` (platform/children.ts) resolves them from Remit's settings. A
 * malformed one fails at start with its name.
 */
const IndexerEnvSchema = z.object({
  /** Comma-separated RPCs: Ponder balances requests across them and retries elsewhere. */
  PONDER_RPC_URL_8453: z.string().default(""),
  /** A local anvil listed this many times: Ponder's request budget is per listed RPC. */
  PONDER_RPC_FANOUT: z.coerce.number().int().min(1).default(1),
  PONDER_POLLING_INTERVAL: z.coerce.number().int().min(1).default(100),
  PONDER_START_BLOCK: z.coerce.number().int().min(0).default(0),
  /** New blocks over WebSocket instead of polled; empty: polled. */
  PONDER_WS_URL_8453: z.string().optional(),
  DATABASE_PRIVATE_URL: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  /** Ponder's schema for this build (npm start passes it with --schema, and here). */
  INDEXER_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
});

/** What the indexer's configuration, handler and deposit-address set read. */
export type IndexerSettings = {
  /** Ponder's `rpc`: one URL, or its list (several RPCs, or one anvil fanned out). */
  rpc: string | string[] | undefined;
  ws: string | undefined;
  pollingInterval: number;
  startBlock: number;
  /** The database Ponder writes to, for the heartbeat and the deposit-address set; none in a bare build. */
  databaseUrl: string | undefined;
  /** Ponder's schema, where the deposit-address set reads back what a catch-up stored. */
  schema: string | undefined;
};

/** Thrown at start when a setting is malformed: the message names it. */
export class IndexerSettingsError extends Error {
  override name = "IndexerSettingsError";
}

/**
 * The indexer's settings from `env`.
 *
 * @example parseIndexerSettings({ PONDER_RPC_URL_8453: "http://a, http://b" }).rpc // ["http://a", "http://b"]
 */
export function parseIndexerSettings(env: NodeJS.ProcessEnv): IndexerSettings {
  // An empty variable means "not set", as in internal/env.ts.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = IndexerEnvSchema.safeParse(set);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new IndexerSettingsError(`invalid indexer setting: ${problems.join("; ")}`);
  }
  const settings = parsed.data;
  const urls = settings.PONDER_RPC_URL_8453.split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
  const rpc =
    urls.length > 1
      ? urls
      : settings.PONDER_RPC_FANOUT > 1 && urls[0]
        ? Array.from({ length: settings.PONDER_RPC_FANOUT }, () => urls[0] as string)
        : urls[0];
  return {
    rpc,
    ws: settings.PONDER_WS_URL_8453 || undefined,
    pollingInterval: settings.PONDER_POLLING_INTERVAL,
    startBlock: settings.PONDER_START_BLOCK,
    databaseUrl: settings.DATABASE_PRIVATE_URL ?? settings.DATABASE_URL,
    schema: settings.INDEXER_SCHEMA,
  };
}

let cached: IndexerSettings | undefined;

/** This process's settings, parsed on first use and then kept. */
export function indexerSettings(): IndexerSettings {
  cached ??= parseIndexerSettings(process.env);
  return cached;
}
