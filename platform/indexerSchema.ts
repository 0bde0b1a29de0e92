import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** Files whose content shapes what Ponder indexes (Ponder hashes a subset of them too). */
const INDEXER_SOURCES = [
  "ponder.config.ts",
  "ponder.schema.ts",
  "src",
  "indexer",
  "abis",
  "domain/constants.ts",
];

async function listFiles(root: string, entry: string): Promise<string[]> {
  const full = path.join(root, entry);
  const dirents = await readdir(full, { withFileTypes: true }).catch(() => null);
  if (!dirents) return [entry];
  const nested = await Promise.all(
    dirents
      .filter((d) => !d.name.endsWith(".test.ts"))
      .map((d) => listFiles(root, path.join(entry, d.name))),
  );
  return nested.flat();
}

export type IndexerBuildInputs = {
  root: string;
  ponderVersion: string;
  rpcUrl: string;
  pollingInterval: number;
  startBlock: number;
  /**
   * Hash of the chain's block 0 (block 1 on the simulated chain, whose block 0 anvil rewrites at
   * every reload): a fresh local chain must not reuse an old chain's index.
   */
  genesisHash: string;
  /** A fork's identity: a new fork at the same block is another chain after the fork point. */
  chainSession?: string;
};

/**
 * The Postgres schema Ponder writes this build into: `idx_<hash of everything that shapes the
 * index>`. Ponder refuses to reuse a schema for a different build (its build id hashes the
 * config, the schema and src/), so each build gets its own; the stable read-only names for
 * auditors and Remit live in the `indexer` views schema Ponder points at the current build.
 */
export async function indexerSchemaName(inputs: IndexerBuildInputs): Promise<string> {
  const hash = createHash("sha256");
  const { root, ...settings } = inputs;
  hash.update(JSON.stringify(settings));
  const files = (await Promise.all(INDEXER_SOURCES.map((entry) => listFiles(root, entry))))
    .flat()
    .sort();
  for (const file of files) {
    hash.update(file);
    hash.update(await readFile(path.join(root, file)));
  }
  return `idx_${hash.digest("hex").slice(0, 12)}`;
}
