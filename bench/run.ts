// `npm run bench`: every benchmark, each printing its figures, then one table of them all.
import { benchBusyChainSweeps } from "./busyChainSweeps.ts";
import { benchIndexLatency } from "./indexLatency.ts";
import { benchInvoiceCreation } from "./invoiceCreation.ts";
import { benchLists } from "./lists.ts";
import { benchMemory } from "./memory.ts";
import { benchPaymentLatency } from "./paymentLatency.ts";
import { benchStartup } from "./startup.ts";
import { benchStatusEndpoint } from "./statusEndpoint.ts";
import { benchStatusMiddleware } from "./statusMiddleware.ts";
import { formatSummary, recorded } from "./summary.ts";
import { benchWalletCheckout } from "./walletCheckout.ts";

console.log(`node ${process.version}, ${new Date().toISOString()}`);
await benchIndexLatency();
await benchInvoiceCreation();
await benchPaymentLatency();
await benchWalletCheckout();
await benchBusyChainSweeps();
await benchStatusEndpoint();
await benchStatusMiddleware();
await benchLists();
await benchStartup();
await benchMemory();
console.log(`\n# Summary (every figure above; ratios against a baseline measured in this run)\n`);
console.log(formatSummary(recorded()));
