// One merchant's webhook receivers hanging must not delay another merchant's webhooks: another
// merchant's receipt → its webhook received, p95, with a neighbour whose 16 webhook endpoints
// accept connections and never answer (4 of its invoices paid, 64 deliveries hanging until
// WEBHOOK_TIMEOUT_MS), against the same figure alone, measured first in the same run on the
// same stack. Each merchant holds at most its share of the webhook queue's slots
// (WEBHOOK_SLOTS_PER_MERCHANT, domain/deliverySlots.ts).
import { createPublicClient, createWalletClient, http } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { devAccount } from "../chain/deployUsdc.ts";
import { createDb } from "../db/database.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { waitFor } from "../internal/process.ts";
import { bearer, claimedMerchant } from "../test/accounts/accounts.ts";
import { startWebhookReceiver } from "../test/helpers/webhookReceiver.ts";
import { benchEnvironment } from "./environment.ts";
import { createBenchInvoice } from "./invoicePayment.ts";
import { startServiceProcesses } from "./serviceProcesses.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const samples = Number(process.env.BENCH_FAIRNESS_PAYMENTS ?? 20);
const NEIGHBOUR_ENDPOINTS = 16;
const NEIGHBOUR_PAYMENTS = 4;

export async function benchWebhookFairness(): Promise<void> {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const indexerPort = await freePort();
  const env = await benchEnvironment({
    blockTime: 1,
    env: { PORT: String(apiPort), BASE_URL: apiUrl, PAY_URL: apiUrl },
  });
  const receiver = await startWebhookReceiver();
  const hanging = await startWebhookReceiver();
  hanging.answerWith("hang");
  const db = createDb(env.databaseUrl, { max: 2 });
  let service: Awaited<ReturnType<typeof startServiceProcesses>> | undefined;
  try {
    service = await startServiceProcesses(env.settings, { indexer: indexerPort, apiUrl });
    const client = createPublicClient({ chain: base, transport: http(env.rpcUrl) });
    const wallet = createWalletClient({
      chain: base,
      transport: http(env.rpcUrl),
      account: devAccount(1),
    });
    const pay = async (to: `0x${string}`) => {
      const hash = await wallet.writeContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transfer",
        args: [to, 1_000_000n],
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    };
    /** Receipt → the quiet merchant's webhook received, `count` times. */
    const measure = async (count: number) => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const invoice = await createBenchInvoice(apiUrl, { webhook_url: receiver.url });
        await pay(invoice.deposit_address);
        const t0 = Date.now();
        const hook = await waitFor(
          "the quiet merchant's webhook",
          async () => receiver.received.find((h) => h.body.includes(invoice.invoice_id)),
          { timeoutMs: 120_000, intervalMs: 5 },
        );
        times.push(hook.receivedAt - t0);
      }
      return times;
    };

    const alone = await measure(samples);

    // The neighbour: a merchant with 16 endpoints on a host that never answers, 4 invoices paid.
    const neighbour = await claimedMerchant(db);
    for (let i = 0; i < NEIGHBOUR_ENDPOINTS; i++) {
      const created = await fetch(`${apiUrl}/api/webhook-endpoints`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(neighbour.key) },
        body: JSON.stringify({ url: `${hanging.url}/${i}` }),
      });
      if (created.status !== 201)
        throw new Error(`endpoint ${i}: ${created.status} ${await created.text()}`);
    }
    for (let i = 0; i < NEIGHBOUR_PAYMENTS; i++) {
      const invoice = await createBenchInvoice(
        apiUrl,
        { merchant_email: neighbour.email, merchant_name: "Neighbour" },
        bearer(neighbour.key),
      );
      await pay(invoice.deposit_address);
    }
    // Its deliveries are hanging before the quiet merchant's payments are measured.
    await waitFor("the neighbour's deliveries hanging", async () => hanging.received.length >= 2, {
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    const beside = await measure(samples);

    console.log(
      `\n# Webhook fairness (${samples} payments each, 1 s blocks; neighbour: ${NEIGHBOUR_ENDPOINTS} hanging endpoints, ${NEIGHBOUR_PAYMENTS} payments)`,
    );
    const quiet = printSummary("baseline: receipt → webhook, alone", alone);
    const loaded = printSummary("receipt → webhook, neighbour's endpoints hanging", beside);
    const ratio = loaded.p95 / quiet.p95;
    console.log(`ratio p95 ${ratio.toFixed(2)}×   goal: ≤ 1.2×`);
    record({
      measure: "another merchant's receipt → webhook p95 while a neighbour's 16 endpoints hang",
      result: `p50 ${fmtMs(loaded.p50)}, p95 ${fmtMs(loaded.p95)}, p99 ${fmtMs(loaded.p99)}`,
      baseline: `alone p95 ${fmtMs(quiet.p95)}`,
      ratio: `${ratio.toFixed(2)}×`,
      goal: "≤ 1.2× alone",
      met: ratio <= 1.2,
      whyNot:
        "each merchant holds at most WEBHOOK_SLOTS_PER_MERCHANT of the queue's slots; what is left over is the neighbour's attempts re-queued while they wait for their share, and scheduler noise on a loaded 2-core machine",
    });
  } finally {
    hanging.release();
    await db.destroy();
    await service?.stop();
    await Promise.all([receiver.stop(), hanging.stop()]);
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWebhookFairness();
