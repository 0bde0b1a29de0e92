// From a paying transaction's receipt to (a) the status endpoint answering `paid` and (b) the
// signed webhook arriving at a local receiver, through the real indexer, worker and API on a
// chain with 1 s blocks. Baseline, measured in the same run: receipt → the transfer's row in
// the indexer's table (what indexing alone costs).
import pg from "pg";
import { createPublicClient, createWalletClient, http } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { devAccount } from "../chain/deployUsdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { waitFor } from "../internal/process.ts";
import { startWebhookReceiver } from "../test/helpers/webhookReceiver.ts";
import { benchEnvironment } from "./environment.ts";
import { createBenchInvoice } from "./invoicePayment.ts";
import { startServiceProcesses } from "./serviceProcesses.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const payments = Number(process.env.BENCH_PAYMENTS ?? 50);

export async function benchPaymentLatency(): Promise<void> {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const indexerPort = await freePort();
  const env = await benchEnvironment({
    blockTime: 1,
    env: { PORT: String(apiPort), BASE_URL: apiUrl, PAY_URL: apiUrl },
  });
  const receiver = await startWebhookReceiver();
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  let service: Awaited<ReturnType<typeof startServiceProcesses>> | undefined;
  try {
    service = await startServiceProcesses(env.settings, { indexer: indexerPort, apiUrl });
    const client = createPublicClient({ chain: base, transport: http(env.rpcUrl) });
    const wallet = createWalletClient({
      chain: base,
      transport: http(env.rpcUrl),
      account: devAccount(1),
    });

    const toRow: number[] = [];
    const toStatus: number[] = [];
    const toWebhook: number[] = [];
    for (let i = 0; i < payments; i++) {
      const invoice = await createBenchInvoice(apiUrl, { webhook_url: receiver.url });
      const hash = await wallet.writeContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transfer",
        args: [invoice.deposit_address, 1_000_000n],
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      const t0 = performance.now();
      const seen = { row: 0, status: 0 };
      await Promise.all([
        waitFor(
          "the row",
          async () => {
            const { rowCount } = await db.query(
              "select 1 from idx_bench.usdc_transfer where tx_hash = $1",
              [hash],
            );
            if (rowCount) seen.row = performance.now();
            return rowCount;
          },
          { timeoutMs: 20_000, intervalMs: 5 },
        ),
        waitFor(
          "paid",
          async () => {
            const body = (await (
              await fetch(`${apiUrl}/api/invoices/${invoice.invoice_id}/status`)
            ).json()) as { status: string };
            if (body.status === "paid") seen.status = performance.now();
            return body.status === "paid";
          },
          { timeoutMs: 20_000, intervalMs: 5 },
        ),
      ]);
      const hook = await waitFor(
        "the webhook",
        async () => receiver.received.find((h) => h.body.includes(invoice.invoice_id)),
        { timeoutMs: 20_000, intervalMs: 5 },
      );
      toRow.push(seen.row - t0);
      toStatus.push(seen.status - t0);
      // The receiver stamps with Date.now(); convert through the same clock.
      toWebhook.push(hook.receivedAt - (Date.now() - (performance.now() - t0)));
    }
    console.log(
      `\n# Payment → paid (${payments} payments, 1 s blocks, new blocks over WebSocket, from the receipt)`,
    );
    const row = printSummary("baseline: receipt → indexed row", toRow);
    const status = printSummary("receipt → status endpoint says paid", toStatus);
    const hook = printSummary("receipt → webhook received", toWebhook);
    console.log(
      `ratio p50 status/row ${(status.p50 / row.p50).toFixed(2)}×, webhook/row ${(hook.p50 / row.p50).toFixed(2)}×   goal: p95 < 150 ms for both`,
    );
    for (const [measure, sample] of [
      ["detection: receipt → status `paid`", status],
      ["webhook: receipt → webhook received", hook],
    ] as const)
      record({
        measure,
        result: `p50 ${fmtMs(sample.p50)}, p95 ${fmtMs(sample.p95)}, p99 ${fmtMs(sample.p99)}`,
        baseline: `receipt → indexed row p50 ${fmtMs(row.p50)}`,
        ratio: `${(sample.p50 / row.p50).toFixed(2)}×`,
        goal: "p95 < 150 ms",
        met: sample.p95 < 150,
        whyNot:
          "the tail is a block's worth of indexing plus the reconcile job's poll (graphile-worker wakes on LISTEN/NOTIFY); a p95 over the goal comes from scheduler noise on a loaded 2-core machine",
      });
  } finally {
    await db.end();
    await service?.stop();
    await receiver.stop();
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPaymentLatency();
