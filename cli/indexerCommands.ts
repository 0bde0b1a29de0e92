import { setTimeout as delay } from "node:timers/promises";
import {
  caughtUp,
  type IndexerBuildsReport,
  indexerBuildsReport,
  type PruneResult,
  pruneIndexerBuilds,
} from "../platform/indexerUpgrade.ts";
import { CliError, EXIT } from "./io.ts";
import { type ServiceDatabaseOptions, withServiceDatabase } from "./serviceDatabase.ts";

/** `remit indexer status`: every build, which one is current, which run, how far each got. */
export function indexerStatus(options: ServiceDatabaseOptions): Promise<IndexerBuildsReport> {
  return withServiceDatabase(options, (db) => indexerBuildsReport(db));
}

/**
 * `remit indexer wait <schema>`: returns once `schema` has taken over (current, its backfill
 * done, as far as every other running build), or fails with the last report at `timeoutS`. A
 * schema not there yet is waited for: the new indexer creates it a few seconds into its start.
 */
export function waitForIndexerBuild(
  options: ServiceDatabaseOptions & { schema: string; timeoutS: number },
): Promise<IndexerBuildsReport> {
  return withServiceDatabase(options, async (db) => {
    const deadline = Date.now() + options.timeoutS * 1000;
    for (;;) {
      const report = await indexerBuildsReport(db);
      if (caughtUp(report, options.schema)) return report;
      if (Date.now() >= deadline)
        throw new CliError(
          report.builds.some((build) => build.schema === options.schema)
            ? `"${options.schema}" has not taken over after ${options.timeoutS} s: ${JSON.stringify(report)}`
            : `no indexer build in schema "${options.schema}" after ${options.timeoutS} s: is the new release's indexer running? (its log's "indexer schema" line names the schema)`,
          EXIT.unavailable,
        );
      await delay(500);
    }
  });
}

/** `remit indexer prune`: drops the builds nothing uses any more (pruneIndexerBuilds). */
export function pruneIndexer(
  options: ServiceDatabaseOptions & { keep: string[] },
): Promise<PruneResult> {
  return withServiceDatabase(options, (db) => pruneIndexerBuilds(db, { keep: options.keep }));
}
