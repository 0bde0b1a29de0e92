// Pay over x402: from software's first request to an invoice's `x402_url` to its 200 with
// PAYMENT-RESPONSE, with the official client (@x402/fetch + @x402/evm) and a payer holding USDC
// and no ETH, at 1 s blocks: 402, sign, request again, Remit verifies, the worker's relayer
// sends, the API waits for the receipt. Baseline, measured in the same run and interleaved: a
// plain USDC transfer from sending to its receipt (the block every payment waits for).
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { createBenchInvoice } from "./invoicePayment.ts";
import { withRelayedPaymentService } from "./relayedPayments.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, formatSummary, record, recorded } from "./summary.ts";

const payments = Number(process.env.BENCH_X402_PAYMENTS ?? 20);

export async function benchX402Payment(): Promise<void> {
  await withRelayedPaymentService(
    { RATE_LIMIT_X402_PER_MIN: "0" },
    async ({ apiUrl, payer, plainTransfer }) => {
      const pay = wrapFetchWithPayment(
        fetch,
        new x402Client()
          .register("eip155:8453", new ExactEvmScheme(payer))
          .setSpendControls({ maxAmountPerPayment: "$10" }),
      );

      const requestToSettled: number[] = [];
      const transferToReceipt: number[] = [];
      for (let i = 0; i < payments; i++) {
        transferToReceipt.push((await plainTransfer()).ms);
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
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchX402Payment();
  console.log(`\n${formatSummary(recorded())}`);
}
