// `npm run bench`: every benchmark, each printing its figures.
import { benchIndexLatency } from "./indexLatency.ts";
import { benchInvoiceCreation } from "./invoiceCreation.ts";
import { benchPaymentLatency } from "./paymentLatency.ts";
import { benchStartup } from "./startup.ts";
import { benchStatusEndpoint } from "./statusEndpoint.ts";

console.log(`node ${process.version}, ${new Date().toISOString()}`);
await benchIndexLatency();
await benchInvoiceCreation();
await benchPaymentLatency();
await benchStatusEndpoint();
await benchStartup();
