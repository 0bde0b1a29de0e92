// Time from a USDC transfer being mined to its row in Postgres, through the real Ponder indexer
// at a 100 ms polling interval. Baseline, measured in the same run: the floor any indexer has
// to pay here, one eth_getLogs round trip plus one INSERT.
import pg from "pg";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devAccount } from "../chain/deployUsdc.ts";
import { rpcRequest } from "../chain/rpc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import { indexerSpec } from "../platform/children.ts";
import { createChain } from "../test/helpers/chain.ts";
import { benchEnvironment } from "./environment.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const transfers = Number(process.env.BENCH_TRANSFERS ?? 100);
const pollingInterval = 100;

export async function benchIndexLatency(): Promise<void> {
  const env = await benchEnvironment({ blockTime: 0 });
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  const port = await freePort();
  const spec = indexerSpec({
    ...env.settings,
    port,
    host: "127.0.0.1",
    pollingInterval,
    startBlock: 0,
  });
  const indexer = spawnLogged(spec.command, spec.args, { env: spec.env });
  try {
    await waitFor("the indexer", async () => (await fetch(`http://127.0.0.1:${port}/ready`)).ok, {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const chain = createChain(env.rpcUrl);
    const payer = devAccount(1);
    const deposits = Array.from(
      { length: transfers },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    for (const address of deposits) {
      await db.query("insert into app.deposit_addresses (address) values ($1)", [
        address.toLowerCase(),
      ]);
    }

    const latencies: number[] = [];
    const floor: number[] = [];
    for (const deposit of deposits) {
      // Anvil automines: the call returns once the transfer is in a block.
      const receipt = await chain.payUsdc(payer, deposit, 1_000_000n);
      const mined = performance.now();
      await waitFor(
        "the row",
        async () =>
          (
            await db.query(`select 1 from idx_bench.usdc_transfer where tx_hash = $1`, [
              receipt.transactionHash,
            ])
          ).rowCount,
        { timeoutMs: 10_000, intervalMs: 2 },
      );
      latencies.push(performance.now() - mined);

      const t0 = performance.now();
      const block = `0x${receipt.blockNumber.toString(16)}`;
      await rpcRequest(env.rpcUrl, "eth_getLogs", [
        { address: USDC_ADDRESS, fromBlock: block, toBlock: block },
      ]);
      await db.query(
        "insert into app.heartbeats (component, pid) values ('bench', 0) on conflict (component, instance) do update set beat_at = now()",
      );
      floor.push(performance.now() - t0);
    }
    console.log(
      `\n# USDC transfer mined → row in Postgres (Ponder, pollingInterval ${pollingInterval} ms, ${transfers} transfers)`,
    );
    const l = printSummary("mined → indexed row", latencies);
    const f = printSummary("baseline: eth_getLogs + INSERT", floor);
    console.log(
      `ratio p50 / baseline p50             ${(l.p50 / f.p50).toFixed(1)}×   goal: p50 < 150 ms, p95 < 300 ms`,
    );
    record({
      measure: "detection: transfer mined → indexed row",
      result: `p50 ${fmtMs(l.p50)}, p95 ${fmtMs(l.p95)}, p99 ${fmtMs(l.p99)}`,
      baseline: `eth_getLogs + INSERT p50 ${fmtMs(f.p50)}`,
      ratio: `${(l.p50 / f.p50).toFixed(1)}×`,
      goal: "p50 < 150 ms, p95 < 300 ms",
    });
  } finally {
    await stopProcess(indexer);
    await db.end();
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchIndexLatency();
