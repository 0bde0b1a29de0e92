// Pay over x402: from software's first request to an invoice's `x402_url` to its 200 with
// PAYMENT-RESPONSE, with the official client (@x402/fetch + @x402/evm) and a payer holding USDC
// and no ETH, at 1 s blocks: 402, sign, request again, Remit verifies, the worker's relayer
// sends, the API waits for the receipt. Baseline, measured in the same run and interleaved: a
// plain USDC transfer from sending to its receipt (the block every payment waits for).
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { createPublicClient, createWalletClient, http } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { devAccount } from "../chain/deployUsdc.ts";
import { rpcRequest } from "../chain/rpc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { relayerAccount } from "../keys/relayer.ts";
import { benchEnvironment } from "./environment.ts";
import { createBenchInvoice } from "./invoicePayment.ts";
import { startServiceProcesses } from "./serviceProcesses.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, formatSummary, record, recorded } from "./summary.ts";

const payments = Number(process.env.BENCH_X402_PAYMENTS ?? 20);

export async function benchX402Payment(): Promise<void> {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const indexerPort = await freePort();
  const relayer = relayerAccount({ privateKey: undefined, localChain: true });
  if (!relayer) throw new Error("no local relayer");
  const env = await benchEnvironment({
    blockTime: 1,
    env: {
      PORT: String(apiPort),
      BASE_URL: apiUrl,
      PAY_URL: apiUrl,
      RATE_LIMIT_X402_PER_MIN: "0",
      GASLESS_PER_SLUG_PER_MIN: "0",
      // As in the wallet checkout's benchmark: sweeps off, so only the payments measured use
      // the relayer, whose address the API is given as `npm start` would.
      SWEEP: "off",
      RELAYER_ADDRESS: relayer.address,
    },
  });
  let service: Awaited<ReturnType<typeof startServiceProcesses>> | undefined;
  try {
    service = await startServiceProcesses(env.settings, { indexer: indexerPort, apiUrl });
    const client = createPublicClient({ chain: base, transport: http(env.rpcUrl) });
    const sender = createWalletClient({
      chain: base,
      transport: http(env.rpcUrl),
      account: devAccount(1),
    });
    // The x402 payer holds USDC and no ETH at all.
    const payer = devAccount(6);
    await rpcRequest(env.rpcUrl, "anvil_setBalance", [payer.address, "0x0"]);
    const pay = wrapFetchWithPayment(
      fetch,
      new x402Client()
        .register("eip155:8453", new ExactEvmScheme(payer))
        .setSpendControls({ maxAmountPerPayment: "$10" }),
    );

    const requestToSettled: number[] = [];
    const transferToReceipt: number[] = [];
    for (let i = 0; i < payments; i++) {
      const sentAt = performance.now();
      const hash = await sender.writeContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transfer",
        args: [devAccount(2).address, 1_000_000n],
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      transferToReceipt.push(performance.now() - sentAt);

      const invoice = await createBenchInvoice(apiUrl);
      const x402Url = (invoice as typeof invoice & { x402_url: string }).x402_url;
      const requestedAt = performance.now();
      const response = await pay(x402Url);
      if (response.status !== 200 || !response.headers.get("PAYMENT-RESPONSE"))
        throw new Error(`x402 payment answered ${response.status}: ${await response.text()}`);
      requestToSettled.push(performance.now() - requestedAt);
      await response.body?.cancel();
    }

    console.log(
      `\n# Pay over x402 (@x402/fetch): first request → 200 with PAYMENT-RESPONSE (${payments} payments, 1 s blocks)`,
    );
    const floor = printSummary("baseline: transfer sent → receipt", transferToReceipt);
    const settled = printSummary("x402 request → 200 (receipt in a block)", requestToSettled);
    record({
      measure: "x402 payment: request → 200 with PAYMENT-RESPONSE",
      result: `p50 ${fmtMs(settled.p50)}, p95 ${fmtMs(settled.p95)}, p99 ${fmtMs(settled.p99)}`,
      baseline: `transfer sent → receipt p50 ${fmtMs(floor.p50)}`,
      ratio: `${(settled.p50 / floor.p50).toFixed(2)}×`,
      goal: "p95 < 3 s at 1 s blocks",
      met: settled.p95 < 3000,
      whyNot:
        "two round trips, the verification's chain reads and simulation, the worker's pickup, then the block",
    });
  } finally {
    await service?.stop();
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchX402Payment();
  console.log(`\n${formatSummary(recorded())}`);
}
