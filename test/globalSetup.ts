import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type Anvil, startAnvil } from "../chain/anvil.ts";
import { ensureUsdcGenesis } from "../chain/usdcGenesis.ts";
import { ensureDatabase, startEmbeddedPostgres } from "../db/embeddedPostgres.ts";
import { migrate } from "../db/migrate.ts";
import { freePort } from "../platform/freePort.ts";

/** The migrated database every test database is cloned from. */
export const TEMPLATE_DATABASE = "remit_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection string of the test cluster's `postgres` database (for create/drop). */
    postgresAdminUrl: string;
    /** One anvil (chain 8453, USDC deployed) per vitest worker, indexed by VITEST_POOL_ID - 1. */
    anvilUrls: string[];
    /** The anvil state with USDC deployed, for tests that start an anvil of their own. */
    usdcGenesisFile: string;
  }
}

/**
 * Starts, for the whole run, one throwaway Postgres with a migrated template database and one
 * anvil per worker loaded from a state with USDC already deployed (instant). Tests clone the
 * template (test/helpers/database.ts) and snapshot/revert their worker's anvil.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "remit-test-"));
  const genesis = await ensureUsdcGenesis(path.join(dir, "usdc-genesis.json"));
  const postgres = await startEmbeddedPostgres({
    dataDir: path.join(dir, "postgres"),
    port: await freePort(),
    ephemeral: true,
  });
  await ensureDatabase(postgres.url("postgres"), TEMPLATE_DATABASE);
  await migrate(postgres.url(TEMPLATE_DATABASE));

  const workers = Number(project.config.maxWorkers) || 2;
  const anvils: Anvil[] = [];
  for (let i = 0; i < workers; i++) {
    anvils.push(await startAnvil({ port: await freePort(), blockTime: 0, loadState: genesis }));
  }
  project.provide("postgresAdminUrl", postgres.url("postgres"));
  project.provide(
    "anvilUrls",
    anvils.map((anvil) => anvil.url),
  );
  project.provide("usdcGenesisFile", genesis);

  return async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
