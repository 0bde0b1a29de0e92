/**
 * `npm run test:fork [files…]`: the payment tests in fork mode. Without BASE_FORK_URL it first
 * starts an anvil "A" playing Base (Circle's USDC at the canonical address, the dev accounts'
 * USDC held by a whale), and the test harness forks A; with BASE_FORK_URL (and USDC_WHALE) set,
 * it forks that, real Base included.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureUsdcGenesis } from "../chain/usdcGenesis.ts";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { startUpstreamBase, upstreamWhale } from "../test/helpers/upstreamBase.ts";

/** The tests that move USDC: every one of them must pass on a fork unchanged. */
const PAYMENT_TESTS = ["test/payments", "test/sweeps", "test/links", "test/indexer.test.ts"];

const files = process.argv.slice(2);
const env = { ...process.env };
let stopUpstream = async () => {};
if (!env.BASE_FORK_URL) {
  const dir = await mkdtemp(path.join(tmpdir(), "remit-upstream-"));
  const upstream = await startUpstreamBase({
    genesisFile: await ensureUsdcGenesis(path.join(dir, "usdc-genesis.json")),
    dataDir: dir,
    port: await freePort(),
    blockTime: 0,
    emptyDevAccounts: true,
  });
  stopUpstream = async () => {
    await upstream.stop();
    await rm(dir, { recursive: true, force: true });
  };
  Object.assign(env, { BASE_FORK_URL: upstream.url, USDC_WHALE: upstreamWhale.address });
  console.log(`test:fork: anvil A plays Base at ${upstream.url}; the tests fork it`);
}

const vitest = spawn(
  path.join(projectRoot, "node_modules/.bin/vitest"),
  ["run", ...(files.length ? files : PAYMENT_TESTS)],
  { cwd: projectRoot, env, stdio: "inherit" },
);
const code = await new Promise<number>((resolve) =>
  vitest.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
await stopUpstream();
process.exit(code);
