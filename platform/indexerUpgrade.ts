import type { Db } from "../db/database.ts";
import {
  dropIndexerBuildUnless,
  indexerViewsTarget,
  listIndexerBuilds,
  type StoredIndexerBuild,
} from "../db/queries/indexerBuilds.ts";

/**
 * Ponder takes a schema's lock for its own once the lock's heartbeat is 25 s old
 * (databaseHeartbeatTimeout); we count a lock as held for a minute more, so that a clock on the
 * indexer's host a little ahead of ours never makes a live build look abandoned.
 */
export const PONDER_LOCK_LIVE_MS = 25_000 + 60_000;

export type IndexerBuildState = {
  schema: string;
  /** The `indexer` views select from it: the current build. */
  current: boolean;
  /** Its backfill is done (Ponder's is_ready). */
  ready: boolean;
  /** A Ponder holds its lock and renewed it lately: an indexer runs on it. */
  live: boolean;
  indexed_block: string | null;
};

export type IndexerBuildsReport = { views: string | null; builds: IndexerBuildState[] };

const isLive = (build: Pick<StoredIndexerBuild, "locked" | "heartbeatAt">, nowMs: number) =>
  build.locked && build.heartbeatAt !== null && nowMs - build.heartbeatAt < PONDER_LOCK_LIVE_MS;

/** Every indexer build in the database, and the one the `indexer` views point at. */
export async function indexerBuildsReport(
  db: Db,
  nowMs = Date.now(),
): Promise<IndexerBuildsReport> {
  const [views, builds] = await Promise.all([indexerViewsTarget(db), listIndexerBuilds(db)]);
  return {
    views,
    builds: builds.map((build) => ({
      schema: build.schema,
      current: build.schema === views,
      ready: build.ready,
      live: isLive(build, nowMs),
      indexed_block: build.indexedBlock?.toString() ?? null,
    })),
  };
}

/**
 * Whether `schema` has taken over: Ponder made it current (it points the `indexer` views at a
 * build when its backfill is done) and it has indexed as far as every other live build, so the
 * release reading it sees every transfer the one before saw.
 */
export function caughtUp(report: IndexerBuildsReport, schema: string): boolean {
  const build = report.builds.find((b) => b.schema === schema);
  if (!build?.current || !build.ready || build.indexed_block === null) return false;
  const own = BigInt(build.indexed_block);
  return report.builds
    .filter((other) => other.schema !== schema && other.live && other.indexed_block !== null)
    .every((other) => own >= BigInt(other.indexed_block ?? "0"));
}

export type PruneResult = {
  dropped: string[];
  kept: { schema: string; reason: string }[];
};

/**
 * Drops the schemas of indexer builds nothing uses any more, with their reconcile watermarks:
 * never the one the `indexer` views point at, one a live Ponder holds, or one named in `keep`;
 * nothing at all while there are no views (no build has ever finished its backfill). The
 * releases reading a dropped build must be stopped first (docs/operations.md, "Upgrades").
 */
export async function pruneIndexerBuilds(
  db: Db,
  options: { keep?: string[]; nowMs?: number } = {},
): Promise<PruneResult> {
  const report = await indexerBuildsReport(db, options.nowMs);
  const result: PruneResult = { dropped: [], kept: [] };
  for (const build of report.builds) {
    const reason = !report.views
      ? "no build is current yet (the indexer views do not exist)"
      : build.current
        ? "current: the indexer views point at it"
        : build.live
          ? "a running indexer holds its lock"
          : options.keep?.includes(build.schema)
            ? "kept on request"
            : null;
    if (reason) {
      result.kept.push({ schema: build.schema, reason });
      continue;
    }
    const nowMs = options.nowMs ?? Date.now();
    if (await dropIndexerBuildUnless(db, build.schema, (meta) => isLive(meta, nowMs)))
      result.dropped.push(build.schema);
    else result.kept.push({ schema: build.schema, reason: "a running indexer holds its lock" });
  }
  return result;
}
