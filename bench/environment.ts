import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startAnvil } from "../chain/anvil.ts";
import { ensureUsdcGenesis } from "../chain/usdcGenesis.ts";
import { ensureDatabase, startEmbeddedPostgres } from "../db/embeddedPostgres.ts";
import { migrate } from "../db/migrate.ts";
import { freePort } from "../internal/freePort.ts";
import { newMnemonic } from "../keys/hdWallet.ts";
import { ensureBuilt } from "../platform/build.mjs";
import type { ChildSettings } from "../platform/children.ts";
import { fillManagedWalletPool } from "../platform/managedWallets.ts";

/**
 * A throwaway Postgres (migrated) and a local chain with USDC, for a benchmark run, plus the
 * settings to start the service's processes on them.
 */
export async function benchEnvironment(options: { blockTime: number; env?: NodeJS.ProcessEnv }) {
  const dir = await mkdtemp(path.join(tmpdir(), "remit-bench-"));
  const postgres = await startEmbeddedPostgres({
    dataDir: path.join(dir, "pg"),
    port: await freePort(),
  });
  const anvil = await startAnvil({
    port: await freePort(),
    blockTime: options.blockTime,
    loadState: await ensureUsdcGenesis(path.join(dir, "genesis.json")),
  });
  await ensureDatabase(postgres.url("postgres"), "bench");
  const databaseUrl = postgres.url("bench");
  await migrate(databaseUrl);
  const mnemonic = newMnemonic();
  // Managed wallets are derived ahead into a pool, as npm start does before its children start:
  // the API cannot derive them (hardened), and the worker refills only after a creation.
  await fillManagedWalletPool(databaseUrl, mnemonic);
  const { BASE_URL: _vite, ...inherited } = process.env;
  // The processes run from the bundles `npm start` runs (platform/build.mjs), not through tsx.
  const { dir: bundles } = await ensureBuilt();
  const settings: ChildSettings = {
    baseEnv: {
      ...inherited,
      REMIT_BUILD_DIR: bundles,
      DATA_DIR: dir,
      LOG_LEVEL: "warn",
      // One load generator on loopback is not a client to limit; the status bench turns the
      // limiter back on with 10,000 client addresses.
      RATE_LIMIT_STATUS_PER_MIN: "0",
      RATE_LIMIT_INVOICES_PER_MIN: "0",
      EMAILS_TO_OTHERS_PER_HOUR: "0",
      EMAILS_TO_OTHERS_PER_DAY: "0",
      RATE_LIMIT_LINKS_PER_MIN: "0",
      ...options.env,
    },
    databaseUrl,
    rpcUrl: anvil.url,
    indexerSchema: "idx_bench",
    mnemonic,
    webhookSecretKey: randomBytes(32).toString("hex"),
  };
  return {
    dir,
    databaseUrl,
    rpcUrl: anvil.url,
    settings,
    stop: async () => {
      await anvil.stop();
      await postgres.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
