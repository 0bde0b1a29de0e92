// Sweeps on a busy chain (≥ 150 unrelated USDC transfers per block at 1 s blocks)
// for two minutes while invoices are paid one after another and every payment is swept. It
// measures receipt → status `paid` (payment detection must not wait behind sweeps), checks
// that every sweep is confirmed exactly once, and counts the node's refusals of relayer
// transactions (`replacement transaction underpriced`) and receipt time-outs in the logs.
// Baseline, measured in the same run: receipt → the transfer's row in the indexer's table.
import { appendFileSync } from "node:fs";
import pg from "pg";
import { type Address, createPublicClient, http } from "viem";
import { base } from "viem/chains";
import { devAccount } from "../chain/deployUsdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import { apiSpec, indexerSpec, workerSpec } from "../platform/children.ts";
import {
  busyChain,
  type ChainReader,
  prepareBusyChain,
  transferEvent,
  transfersPerBlock,
} from "./busyChain.ts";
import { benchEnvironment } from "./environment.ts";
import { payBenchInvoice } from "./invoicePayment.ts";
import { printSummary, type summarize } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const seconds = Number(process.env.BENCH_BUSY_SECONDS ?? 120);
const transfersPerSecond = Number(process.env.BENCH_BUSY_TPS ?? 170);
const minimumInvoices = Number(process.env.BENCH_BUSY_INVOICES ?? 30);
/** Every line the service's processes write, for a look afterwards (unset: none kept). */
const logFile = process.env.BENCH_BUSY_LOG_FILE;

/** Pays the invoices (the load's senders are dev accounts 0–7, 9 is the local relayer). */
const PAYER = devAccount(8);

/** Receipt → paid (or → row) past this counts as late, at this value. */
const LATE_MS = 30_000;

export async function benchBusyChainSweeps(): Promise<void> {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const indexerPort = await freePort();
  const env = await benchEnvironment({
    blockTime: 1,
    env: { PORT: String(apiPort), BASE_URL: apiUrl, PAY_URL: apiUrl },
  });
  const specs = [
    indexerSpec({
      ...env.settings,
      port: indexerPort,
      host: "127.0.0.1",
      pollingInterval: 100,
      startBlock: 0,
    }),
    apiSpec(env.settings),
    workerSpec(env.settings),
  ];
  const refusals = { underpriced: 0, receiptTimeouts: 0, nonceTooLow: 0 };
  // The indexer's reorg handling (Ponder's `reorg_block`) failing and retrying stalls indexing.
  const indexer = { reorgRetries: 0 };
  const children = specs.map((spec) =>
    spawnLogged(spec.command, spec.args, {
      env: spec.env,
      onLine: (line) => {
        if (logFile) appendFileSync(logFile, `${line}\n`);
        if (/replacement transaction underpriced/i.test(line)) refusals.underpriced++;
        if (/timed out while waiting for transaction|receipt.*time-?out/i.test(line))
          refusals.receiptTimeouts++;
        if (/nonce too low/i.test(line)) refusals.nonceTooLow++;
        if (/Failed database query action=reorg_block/.test(line)) indexer.reorgRetries++;
        if (/"level":"(error|fatal)"/.test(line)) console.error(line);
      },
    }),
  );
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  const client = createPublicClient({ chain: base, transport: http(env.rpcUrl) });
  let loading = true;
  try {
    await waitFor(
      "the indexer",
      async () => (await fetch(`http://127.0.0.1:${indexerPort}/ready`)).ok,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    await waitFor("the API", async () => (await fetch(`${apiUrl}/health`)).status > 0, {
      timeoutMs: 30_000,
    });

    // A minute more than the window, should the invoices need longer.
    const batches = await prepareBusyChain(env.rpcUrl, seconds + 60, transfersPerSecond);
    const firstBlock = (await client.getBlockNumber()) + 1n;
    const load = busyChain(env.rpcUrl, batches, () => loading);
    const toRow: number[] = [];
    const late = { row: 0, paid: 0 };
    const toPaid: number[] = [];
    const invoices: { id: string; deposit: Address }[] = [];
    const started = Date.now();
    // Invoices paid one after another for the whole window (at least `minimumInvoices`).
    while (Date.now() - started < seconds * 1000 || invoices.length < minimumInvoices) {
      // A payment not seen within the limit is counted at the limit (and as late), so one
      // stall cannot end the run: its figures say how often it happened.
      const paid = await payBenchInvoice({
        apiUrl,
        rpcUrl: env.rpcUrl,
        payer: PAYER,
        rows: { db, schema: "idx_bench" },
        lateMs: LATE_MS,
      });
      invoices.push(paid.invoice);
      if (paid.lateRow) late.row++;
      if (paid.latePaid) late.paid++;
      toRow.push(paid.toRow);
      toPaid.push(paid.toPaid);
    }
    loading = false;
    const sent = await load;
    const lastBlock = await client.getBlockNumber();

    // Every payment swept exactly once: one confirmed sweep per address, one transfer out.
    const deposits = invoices.map((invoice) => invoice.deposit.toLowerCase());
    await waitFor(
      "every sweep confirmed",
      async () => {
        const { rows } = await db.query<{ n: number }>(
          "select count(*)::int as n from app.sweeps where status = 'confirmed' and deposit_address = any($1)",
          [deposits],
        );
        return rows[0]?.n === deposits.length;
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    ).catch(() => undefined);
    const { rows: sweeps } = await db.query<{ deposit_address: string; status: string }>(
      "select deposit_address, status from app.sweeps where deposit_address = any($1)",
      [deposits],
    );
    const confirmed = new Set(
      sweeps.filter((s) => s.status === "confirmed").map((s) => s.deposit_address),
    );
    const outgoing = await countTransfersFrom(
      client,
      invoices.map((i) => i.deposit),
      firstBlock,
    );
    const duplicates = [...outgoing.values()].reduce((n, count) => n + Math.max(0, count - 1), 0);
    const { rows: relayed } = await db.query<{ n: number; resent: number; nonces: number }>(
      "select count(*)::int as n, coalesce(sum(cardinality(hashes) - 1), 0)::int as resent, count(distinct nonce)::int as nonces from app.relayer_transactions",
    );
    const perBlock = await transfersPerBlock(client, firstBlock, lastBlock);

    console.log(
      `\n# Busy chain: ${sent.count} unrelated USDC transfers in ${sent.seconds.toFixed(0)} s (${perBlock.median} per block median, ${perBlock.p5} at the 5th percentile, 1 s blocks) while ${invoices.length} invoices are paid and swept`,
    );
    const row = printSummary("baseline: receipt → indexed row", toRow);
    const paid = printSummary("receipt → status endpoint says paid", toPaid);
    const worker = printSummary(
      "of which row → paid (the worker)",
      toPaid.map((ms, i) => Math.max(0, ms - (toRow[i] ?? 0))),
    );
    console.log(
      `sweeps: ${confirmed.size}/${invoices.length} confirmed, ${duplicates} moved twice; relayer transactions ${relayed[0]?.n} with ${relayed[0]?.nonces} distinct nonces, ${relayed[0]?.resent} re-sent at a higher fee`,
    );
    console.log(
      `late (over ${LATE_MS / 1000} s): ${late.row} rows, ${late.paid} payments; the indexer's reorg handling failed and retried ${indexer.reorgRetries} times`,
    );
    console.log(
      `node refusals in the logs: ${refusals.underpriced} replacement underpriced, ${refusals.nonceTooLow} nonce too low, ${refusals.receiptTimeouts} receipt time-outs   goal: 0`,
    );
    record({
      measure: `busy chain (${perBlock.median} transfers/block): receipt → \`paid\``,
      result: `p50 ${fmtMs(paid.p50)}, p95 ${fmtMs(paid.p95)}, p99 ${fmtMs(paid.p99)}`,
      baseline: `receipt → indexed row p50 ${fmtMs(row.p50)}`,
      ratio: `${(paid.p50 / row.p50).toFixed(2)}×`,
      goal: "p95 < 500 ms",
      met: paid.p95 < 500,
      // Where the time went, payment by payment: the indexer's part (receipt → its row) and
      // the worker's (row → paid), so a missed goal names the part that missed it.
      whyNot: busyChainWhyNot(row, worker, indexer.reorgRetries, late.paid),
      headline: "busy chain: receipt → paid, p95",
    });
    record({
      measure: "busy chain: sweeps confirmed exactly once",
      result: `${confirmed.size}/${invoices.length} confirmed, ${duplicates} twice; ${refusals.underpriced} underpriced, ${refusals.receiptTimeouts} receipt time-outs`,
      baseline: `${relayed[0]?.n} relayer txs, ${relayed[0]?.nonces} nonces`,
      ratio: "—",
      goal: "all once; 0 refusals",
      met:
        confirmed.size === invoices.length &&
        duplicates === 0 &&
        refusals.underpriced === 0 &&
        refusals.receiptTimeouts === 0,
      whyNot: "a sweep missing, moved twice, or refused by the node: see the worker's log above",
    });
  } finally {
    loading = false;
    await db.end();
    await Promise.all(children.map((child) => stopProcess(child)));
    await env.stop();
  }
}

/** USDC transfers out of each of these addresses since `from`. */
async function countTransfersFrom(
  client: ChainReader,
  addresses: Address[],
  from: bigint,
): Promise<Map<string, number>> {
  const logs = await client.getLogs({
    address: USDC_ADDRESS,
    event: transferEvent,
    args: { from: addresses },
    fromBlock: from,
  });
  const counts = new Map<string, number>();
  for (const log of logs) {
    const sender = (log.args.from ?? "").toLowerCase();
    counts.set(sender, (counts.get(sender) ?? 0) + 1);
  }
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBusyChainSweeps();

/** The busy-chain goal missed: the indexer's and the worker's shares of each payment's time. */
function busyChainWhyNot(
  row: ReturnType<typeof summarize>,
  worker: ReturnType<typeof summarize>,
  reorgRetries: number,
  late: number,
): string {
  const part = row.p95 >= worker.p95 ? "the indexer" : "the worker";
  return `receipt → indexed row (Ponder's poll and block) p95 ${fmtMs(row.p95)}, row → paid (the worker's reconcile) p95 ${fmtMs(worker.p95)}: ${part} holds the larger part; ${reorgRetries} reorg retries, ${late} payments late`;
}
