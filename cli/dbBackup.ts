import { type Command, Option } from "commander";
import { CliError, EXIT, printJson } from "./io.ts";

/** The owner's URL the backup reads and the restore writes as, or a usage error. */
function ownerUrl(): string {
  const url = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
  if (!url)
    throw new CliError(
      "set MIGRATION_DATABASE_URL (the owner role) or DATABASE_URL: the embedded database is backed up with its DATA_DIR (docs/operations.md)",
      EXIT.usage,
    );
  return url;
}

/** Runs a backup or restore step, a failure of pg_dump/pg_restore shown as it said it. */
async function attempt<T>(step: () => Promise<T>): Promise<T> {
  const { BackupError } = await import("../db/backup.ts");
  try {
    return await step();
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message, EXIT.unavailable);
    throw error;
  }
}

/**
 * `remit db backup` and `remit db restore` (docs/operations.md, "Backups and restores"): pg_dump
 * and pg_restore as the owner, of Remit's schemas only (db/backup.ts says which and why).
 */
export function registerDbBackup(database: Command): void {
  database
    .command("backup")
    .description(
      "dump Remit's record and job queue (schemas app and graphile_worker, not the indexer's) with pg_dump as the owner (MIGRATION_DATABASE_URL, else DATABASE_URL), custom format",
    )
    .option(
      "--file <path>",
      "where to write the dump",
      `remit-${new Date().toISOString().slice(0, 10)}.dump`,
    )
    .addOption(
      new Option("--pg-dump <path>", "pg_dump of the server's major version or newer")
        .env("PG_DUMP")
        .default("pg_dump"),
    )
    .action(async (options: { file: string; pgDump: string }) => {
      const { backupDatabase } = await import("../db/backup.ts");
      const url = ownerUrl();
      printJson(
        await attempt(() => backupDatabase({ url, file: options.file, pgDump: options.pgDump })),
      );
    });
  database
    .command("restore")
    .description(
      "restore a remit db backup file into a new, empty database as its owner (MIGRATION_DATABASE_URL, else DATABASE_URL), then migrate and grant DATABASE_URL's runtime role",
    )
    .requiredOption("--file <path>", "the dump remit db backup wrote")
    .addOption(
      new Option("--pg-restore <path>", "pg_restore of the server's major version or newer")
        .env("PG_RESTORE")
        .default("pg_restore"),
    )
    .action(async (options: { file: string; pgRestore: string }) => {
      const [{ restoreDatabase }, { migrate }, { grantRuntimeRole }] = await Promise.all([
        import("../db/backup.ts"),
        import("../db/migrate.ts"),
        import("../db/runtimeRole.ts"),
      ]);
      const url = ownerUrl();
      const restored = await attempt(() =>
        restoreDatabase({ url, file: options.file, pgRestore: options.pgRestore }),
      );
      // A dump of an older release is brought up to this one's schema; the runtime role's
      // grants (default privileges included, which a dump of schemas leaves out) are made again.
      const applied = await migrate(url);
      const runtime = process.env.DATABASE_URL;
      const grant = Boolean(process.env.MIGRATION_DATABASE_URL && runtime);
      if (grant && runtime) await grantRuntimeRole(url, runtime);
      printJson({ ...restored, applied, runtime_role_granted: grant });
    });
}
