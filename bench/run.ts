// `npm run bench`: every benchmark, each printing its figures, then one table of them all.
import { benchBaseVolume } from "./baseVolume.ts";
import { benchBusyChainSweeps } from "./busyChainSweeps.ts";
import { benchCliStartup } from "./cliStartup.ts";
import { benchCurrencyDetection } from "./currencyDetection.ts";
import { benchFreshClone } from "./freshClone.ts";
import { benchIndexLatency } from "./indexLatency.ts";
import { benchInvoiceCreation } from "./invoiceCreation.ts";
import { benchLists } from "./lists.ts";
import { formatMachine, machineBaseline } from "./machine.ts";
import { benchMemory } from "./memory.ts";
import { benchPaymentLatency } from "./paymentLatency.ts";
import { benchRestart } from "./restart.ts";
import { benchSchedules } from "./schedules.ts";
import { benchStartup } from "./startup.ts";
import { benchStatusEndpoint } from "./statusEndpoint.ts";
import { benchStatusMiddleware } from "./statusMiddleware.ts";
import { formatHeadlines, formatSummary, record, recorded } from "./summary.ts";
import { benchWalletCheckout } from "./walletCheckout.ts";
import { benchWebhookFairness } from "./webhookFairness.ts";
import { benchX402Payment } from "./x402Payment.ts";

console.log(`node ${process.version}, ${new Date().toISOString()}`);
// Before anything loads the machine: the same work unit, timed in every run.
const machine = formatMachine(await machineBaseline());
console.log(machine);
// BENCH_ONLY=lists,restart runs only those (names as below), for a second look at one figure.
const benchmarks: Record<string, () => Promise<unknown>> = {
  indexLatency: benchIndexLatency,
  invoiceCreation: benchInvoiceCreation,
  paymentLatency: benchPaymentLatency,
  currencyDetection: benchCurrencyDetection,
  webhookFairness: benchWebhookFairness,
  walletCheckout: benchWalletCheckout,
  x402Payment: benchX402Payment,
  busyChainSweeps: benchBusyChainSweeps,
  baseVolume: benchBaseVolume,
  statusEndpoint: benchStatusEndpoint,
  statusMiddleware: benchStatusMiddleware,
  lists: benchLists,
  schedules: benchSchedules,
  freshClone: benchFreshClone,
  startup: benchStartup,
  restart: benchRestart,
  cliStartup: benchCliStartup,
  memory: benchMemory,
};
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const unknown = only?.filter((name) => !(name in benchmarks)) ?? [];
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY: no benchmark named ${unknown.join(", ")}; there are ${Object.keys(benchmarks).join(", ")}`,
  );
  process.exit(2);
}
for (const [name, run] of Object.entries(benchmarks)) {
  if (only && !only.includes(name)) continue;
  // A benchmark that fails is a failed row of the table, not the end of the run.
  await run().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.log(`${name} failed: ${message}`);
    record({
      measure: `${name} (benchmark)`,
      result: `failed: ${message.split("\n")[0]}`,
      baseline: "",
      ratio: "",
      goal: "runs to its end",
      met: false,
      whyNot: message.slice(0, 2_000),
    });
  });
}
console.log(`\n# Headline goals\n`);
console.log(formatHeadlines(recorded(), machine));
console.log(`\n# Summary (every figure above; ratios against a baseline measured in this run)\n`);
console.log(formatSummary(recorded()));
