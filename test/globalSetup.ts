import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Address } from "viem";
import type { TestProject } from "vitest/node";
import { type Anvil, startAnvil } from "../chain/anvil.ts";
import { checkBaseChain } from "../chain/checkBase.ts";
import { fundDevAccountsFromWhale } from "../chain/fundFromWhale.ts";
import { rpcRequest } from "../chain/rpc.ts";
import { ensureUsdcGenesis } from "../chain/usdcGenesis.ts";
import { ensureDatabase, startEmbeddedPostgres } from "../db/embeddedPostgres.ts";
import { migrate } from "../db/migrate.ts";
import { grantRuntimeRole } from "../db/runtimeRole.ts";
import { freePort } from "../internal/freePort.ts";
import { ensureBuilt } from "../platform/build.mjs";
import { type PgBouncer, startPgBouncer } from "./helpers/pgBouncer.ts";
import {
  adminQuery,
  createTestRoles,
  debianPostgresBinaries,
  roleUrl,
  type TestRole,
} from "./helpers/postgresServer.ts";

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
    /** The indexer's first block: 0, or the fork point when the anvils fork BASE_FORK_URL. */
    indexerStartBlock: number;
    /**
     * With REMIT_TEST_POSTGRES=debian (`npm run test:postgres`): the owner and runtime roles of
     * Debian's server that every test database is made for (test/helpers/database.ts); null on
     * the embedded server, where one superuser does everything.
     */
    postgresRoles: { owner: TestRole; runtime: TestRole } | null;
    /**
     * With REMIT_TEST_POOLER=pgbouncer as well (`npm run test:pooler`): the port of PgBouncer in
     * session mode in front of Debian's server, through which every test database's owner and
     * runtime URLs go (test/helpers/database.ts); null otherwise.
     */
    postgresPoolerPort: number | null;
  }
}

/**
 * Starts, for the whole run, one throwaway Postgres with a migrated template database and one
 * anvil per worker loaded from a state with USDC already deployed (instant). Tests clone the
 * template (test/helpers/database.ts) and snapshot/revert their worker's anvil.
 *
 * With BASE_FORK_URL set (fork mode, see docs/development.md, "Tests in fork mode"), each worker's anvil
 * forks it instead, at BASE_FORK_BLOCK_NUMBER or the upstream's latest block, and its dev
 * accounts are funded from USDC_WHALE: the tests then pay with the upstream's USDC.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await runFromBundles();
  const dir = await mkdtemp(path.join(tmpdir(), "remit-test-"));
  const genesis = await ensureUsdcGenesis(path.join(dir, "usdc-genesis.json"));
  const debian = process.env.REMIT_TEST_POSTGRES === "debian";
  const postgres = await startEmbeddedPostgres({
    dataDir: path.join(dir, "postgres"),
    port: await freePort(),
    ephemeral: true,
    ...(debian ? { binaries: await debianPostgresBinaries() } : {}),
  });
  const roles = debian ? await createTestRoles(postgres.url("postgres")) : null;
  await ensureDatabase(postgres.url("postgres"), TEMPLATE_DATABASE);
  if (roles) {
    // Two roles, as docs/operations.md asks of production: the owner migrates, the runtime
    // role is granted; every test database is a copy, grants and policies included.
    await adminQuery(
      postgres.url("postgres"),
      `alter database ${TEMPLATE_DATABASE} owner to ${roles.owner.name}`,
    );
    const template = (role: TestRole) => roleUrl(postgres.url(TEMPLATE_DATABASE), role);
    await migrate(template(roles.owner));
    await grantRuntimeRole(template(roles.owner), template(roles.runtime));
  } else await migrate(postgres.url(TEMPLATE_DATABASE));
  project.provide("postgresRoles", roles);
  const pooler = await startPooler(postgres.url("postgres"), roles);
  project.provide("postgresPoolerPort", pooler?.port ?? null);

  const workers = Number(project.config.maxWorkers) || 2;
  const fork = await forkSettings();
  const anvils: Anvil[] = [];
  for (let i = 0; i < workers; i++) {
    if (!fork) {
      anvils.push(await startAnvil({ port: await freePort(), blockTime: 0, loadState: genesis }));
      continue;
    }
    const anvil = await startAnvil({
      port: await freePort(),
      blockTime: 0,
      forkUrl: fork.url,
      forkBlockNumber: fork.block,
    });
    anvils.push(anvil);
    await fundDevAccountsFromWhale(anvil.url, fork.whale);
  }
  project.provide("indexerStartBlock", fork?.block ?? 0);
  project.provide("postgresAdminUrl", postgres.url("postgres"));
  project.provide(
    "anvilUrls",
    anvils.map((anvil) => anvil.url),
  );
  project.provide("usdcGenesisFile", genesis);

  return async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
    await pooler?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * The processes a test starts (API, worker, indexer, render threads) run from the bundles
 * `npm start` runs (platform/build.mjs), built once here: what is tested is what is shipped, and
 * a stack starts on less than half the CPU it took through tsx and a Vite build of the indexer
 * (measured: 12 s → 5 s of CPU, 7 s → 3.5 s to start, per stack). The forked test workers
 * inherit the variable. REMIT_TEST_FROM_SOURCES=1 runs them from their TypeScript instead.
 */
async function runFromBundles(): Promise<void> {
  if (process.env.REMIT_TEST_FROM_SOURCES === "1") return;
  const bundles = await ensureBuilt();
  process.env.REMIT_BUILD_DIR = bundles.dir;
}

/**
 * PgBouncer in session mode between the stacks and Debian's server, for both roles, when
 * REMIT_TEST_POOLER=pgbouncer (docs/operations.md, "Pooler": the settings are the ones tested).
 */
async function startPooler(
  adminUrl: string,
  roles: { owner: TestRole; runtime: TestRole } | null,
): Promise<PgBouncer | null> {
  const pooler = process.env.REMIT_TEST_POOLER;
  if (!pooler) return null;
  if (pooler !== "pgbouncer" || !roles)
    throw new Error("REMIT_TEST_POOLER=pgbouncer runs with REMIT_TEST_POSTGRES=debian only");
  return startPgBouncer({
    serverPort: Number(new URL(adminUrl).port),
    roles: [roles.owner, roles.runtime],
    mode: "session",
  });
}

/** BASE_FORK_URL's upstream, checked to be Base with USDC, and the block to fork at. */
async function forkSettings(): Promise<{ url: string; block: number; whale: Address } | null> {
  const url = process.env.BASE_FORK_URL;
  if (!url) return null;
  const whale = process.env.USDC_WHALE;
  if (!whale) throw new Error("USDC_WHALE is required with BASE_FORK_URL");
  await checkBaseChain(url, { setting: "BASE_FORK_URL", reachWithinMs: 10_000 });
  // Every worker forks the same block, so they all see the same chain.
  const block = process.env.BASE_FORK_BLOCK_NUMBER
    ? Number(process.env.BASE_FORK_BLOCK_NUMBER)
    : Number(await rpcRequest<string>(url, "eth_blockNumber", []));
  return { url, block, whale: whale as Address };
}
