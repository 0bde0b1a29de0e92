import pg from "pg";
import { createPublicClient, http } from "viem";
import { base } from "viem/chains";
import { devAccount } from "../chain/deployUsdc.ts";
import { freePort } from "../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import { apiSpec, indexerSpec, indexerWsUrl, workerSpec } from "../platform/children.ts";
import { busyChain, prepareBusyChain, transfersPerBlock } from "./busyChain.ts";
import { benchEnvironment } from "./environment.ts";
import { payBenchInvoice } from "./invoicePayment.ts";
import { cpuSeconds } from "./processCpu.ts";
import { printSummary, summarize } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const seconds = Number(process.env.BENCH_BASE_VOLUME_SECONDS ?? 300);
const BLOCK_SECONDS = 2;
/** 10× Base's average USDC transfers per block, a few more so that the median reaches it. */
const transfersPerBlock_ = Number(process.env.BENCH_BASE_VOLUME_PER_BLOCK ?? 320);
const PAYER = devAccount(8);
const LATE_MS = 30_000;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function benchBaseVolume(): Promise<void> {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const indexerPort = await freePort();
  const env = await benchEnvironment({
    blockTime: BLOCK_SECONDS,
    // Sweeps have their own benchmark (bench/busyChainSweeps.ts); here only detection and the
    // indexer are measured.
    env: { PORT: String(apiPort), BASE_URL: apiUrl, PAY_URL: apiUrl, SWEEP: "off" },
  });
  const specs = [
    indexerSpec({
      ...env.settings,
      port: indexerPort,
      host: "127.0.0.1",
      pollingInterval: 100,
      wsUrl: indexerWsUrl(undefined, env.rpcUrl, true),
      startBlock: 0,
    }),
    apiSpec(env.settings),
    workerSpec(env.settings),
  ];
  const children = specs.map((spec) =>
    spawnLogged(spec.command, spec.args, {
      env: spec.env,
      onLine: (line) => {
        if (/"level":"(error|fatal)"/.test(line)) console.error(line);
      },
    }),
  );
  const [indexerProcess] = children;
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  const client = createPublicClient({ chain: base, transport: http(env.rpcUrl) });
  const databaseSize = async () =>
    Number(
      (await db.query<{ size: string }>("select pg_database_size(current_database()) as size"))
        .rows[0]?.size,
    );
  const syncCacheSize = async () =>
    Number(
      (
        await db.query<{ size: string | null }>(
          `select sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)))::text as size
           from pg_tables where schemaname = 'ponder_sync'`,
        )
      ).rows[0]?.size ?? 0,
    );
  const indexedHead = async () => {
    const { rows } = await db.query<{ checkpoint: string }>(
      "select latest_checkpoint as checkpoint from idx_bench._ponder_checkpoint where chain_id = 8453",
    );
    return rows[0] ? BigInt(rows[0].checkpoint.slice(26, 42)) : null;
  };
  let loading = true;
  try {
    await waitFor(
      "the indexer",
      async () => (await fetch(`http://127.0.0.1:${indexerPort}/ready`)).ok,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    // Healthy: the worker runs too (it fills the managed-wallet pool invoices draw from).
    await waitFor("the stack", async () => (await fetch(`${apiUrl}/health`)).ok, {
      timeoutMs: 120_000,
      intervalMs: 250,
    });

    const batches = await prepareBusyChain(
      env.rpcUrl,
      seconds + 30,
      Math.ceil(transfersPerBlock_ / BLOCK_SECONDS),
    );
    const sizeBefore = await databaseSize();
    const syncBefore = await syncCacheSize();
    const firstBlock = (await client.getBlockNumber()) + 1n;
    const cpuBefore = children.map((child) => (child.pid ? cpuSeconds(child.pid) : 0));
    const load = busyChain(env.rpcUrl, batches, () => loading);

    // The indexer's lag behind the chain, in blocks, every 250 ms while the load runs.
    const lags: number[] = [];
    const sampling = (async () => {
      while (loading) {
        const [chainHead, indexed] = await Promise.all([client.getBlockNumber(), indexedHead()]);
        if (indexed !== null) lags.push(Number(chainHead - indexed));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    // A failed run stops sampling with it; its error is the run's.
    sampling.catch(() => {});

    const toRow: number[] = [];
    const toPaid: number[] = [];
    const late = { row: 0, paid: 0 };
    let invoices = 0;
    const started = Date.now();
    while (Date.now() - started < seconds * 1000) {
      const paid = await payBenchInvoice({
        apiUrl,
        rpcUrl: env.rpcUrl,
        payer: PAYER,
        rows: { db, schema: "idx_bench" },
        lateMs: LATE_MS,
      });
      invoices++;
      if (paid.lateRow) late.row++;
      if (paid.latePaid) late.paid++;
      toRow.push(paid.toRow);
      toPaid.push(paid.toPaid);
    }
    loading = false;
    const sent = await load;
    await sampling;
    const lastBlock = await client.getBlockNumber();
    const blocks = Number(lastBlock - firstBlock + 1n);
    const cpuAfter = children.map((child) => (child.pid ? cpuSeconds(child.pid) : 0));
    const cpu = cpuAfter.map((after, i) => after - (cpuBefore[i] ?? 0));
    const indexerCpu = indexerProcess?.pid ? (cpu[0] ?? 0) : 0;
    const serviceCpu = cpu.reduce((sum, value) => sum + value, 0);
    const perBlock = await transfersPerBlock(client, firstBlock, lastBlock);
    const sizeAfter = await databaseSize();
    const syncAfter = await syncCacheSize();
    const { rows: stored } = await db.query<{ n: number }>(
      "select count(*)::int as n from idx_bench.usdc_transfer",
    );

    console.log(
      `\n# 10× Base volume: ${sent.count} unrelated USDC transfers in ${sent.seconds.toFixed(0)} s (${perBlock.median} per block median, ${perBlock.p5} at the 5th percentile, ${BLOCK_SECONDS} s blocks) while ${invoices} invoices are paid`,
    );
    const lag = summarize(lags);
    console.log(
      `indexer lag behind the chain (${lag.n} samples): p50 ${lag.p50} blocks, p95 ${lag.p95}, max ${lag.max}`,
    );
    const row = printSummary("baseline: receipt → indexed row", toRow);
    const paid = printSummary("receipt → status endpoint says paid", toPaid);
    console.log(`late (over ${LATE_MS / 1000} s): ${late.row} rows, ${late.paid} payments`);
    console.log(
      `storage: database ${MB(sizeBefore)} → ${MB(sizeAfter)} (+${MB(sizeAfter - sizeBefore)}); Ponder's sync cache ${MB(syncBefore)} → ${MB(syncAfter)}; indexed rows ${stored[0]?.n} (our ${invoices} payments)`,
    );
    console.log(
      `CPU per block: indexer ${fmtMs((indexerCpu * 1000) / blocks)}, whole service ${fmtMs((serviceCpu * 1000) / blocks)} (${blocks} blocks)`,
    );
    record({
      measure: `10× Base volume (${perBlock.median} transfers/block, ${BLOCK_SECONDS} s blocks): indexer lag`,
      result: `p50 ${lag.p50} blocks, p95 ${lag.p95} blocks (max ${lag.max})`,
      baseline: `${blocks} blocks`,
      ratio: "—",
      goal: "p95 ≤ 1 block",
      met: lag.p95 <= 1,
      whyNot:
        "Ponder fetches and filters every block's USDC logs; a lag over a block means its realtime sync takes longer than a block on this machine",
    });
    record({
      measure: "10× Base volume: receipt → `paid`",
      result: `p50 ${fmtMs(paid.p50)}, p95 ${fmtMs(paid.p95)}`,
      baseline: `receipt → indexed row p95 ${fmtMs(row.p95)}`,
      ratio: `${(paid.p95 / row.p95).toFixed(2)}×`,
      goal: "p95 < 1.5× receipt → row",
      met: paid.p95 < 1.5 * row.p95,
      whyNot: "payments wait behind the unrelated traffic's indexing",
    });
    record({
      measure: "10× Base volume: storage growth, CPU per block",
      result: `database +${MB(sizeAfter - sizeBefore)}, sync cache +${MB(syncAfter - syncBefore)}; indexer ${fmtMs((indexerCpu * 1000) / blocks)} CPU/block`,
      baseline: `${MB(sizeBefore)} before; ${stored[0]?.n} rows stored`,
      ratio: "—",
      goal: "sync cache +0; rows ours only",
      met: syncAfter === syncBefore,
      whyNot: "Ponder cached unrelated blocks or logs (its sync cache grew)",
    });
  } finally {
    loading = false;
    await db.end();
    await Promise.all(
      children.map((child, i) => stopProcess(child, specs[i]?.stopSignal ?? "SIGTERM")),
    );
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBaseVolume();
