// Invoice creation (POST /api/invoices, PDF included) through the real API process on a real
// Postgres, with a concurrent client, against the raw pdfmake render rate of the same invoice
// measured in the same run.
import { usdcPaymentUri } from "../domain/paymentUri.ts";
import { freePort } from "../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import { invoiceDocument } from "../pdf/invoiceDocument.ts";
import { renderPdf } from "../pdf/renderPdf.ts";
import { apiSpec } from "../platform/children.ts";
import { benchEnvironment } from "./environment.ts";
import { printSummary, summarize } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const requests = Number(process.env.BENCH_INVOICES ?? 300);

const body = (i: number) =>
  JSON.stringify({
    merchant_email: `bench-${i % 20}@example.com`,
    merchant_name: "Acme Ltd",
    merchant_address: "1 Market Street, San Francisco",
    vendor_email: "ap@globex.example",
    vendor_name: "Globex Corporation",
    line_items: [
      { description: "Design work", quantity: 2, unit_price: "75.00" },
      { description: "Hosting", quantity: 1, unit_price: "0.125" },
    ],
    due_date: "2099-12-31",
    wallet_type: "managed",
    send_now: false,
  });

async function rawRenderRate(samples: number): Promise<{ perSecond: number; times: number[] }> {
  const data = {
    invoiceNumber: "INV-0001",
    issueDate: "2026-11-01",
    dueDate: "2099-12-31",
    createdAt: new Date(),
    merchant: {
      name: "Acme Ltd",
      address: "1 Market Street, San Francisco",
      email: "bench@example.com",
    },
    vendor: { name: "Globex Corporation", email: "ap@globex.example", address: null },
    lineItems: [
      {
        description: "Design work",
        quantity: "2",
        unitPrice: 75_000_000n,
        lineTotal: 150_000_000n,
      },
      { description: "Hosting", quantity: "1", unitPrice: 125_000n, lineTotal: 125_000n },
    ],
    totalAmount: 150_125_000n,
    notes: null,
    depositAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    paymentUri: usdcPaymentUri("0x8ba1f109551bD432803012645Ac136ddd64DBA72", 150_125_000n),
    invoiceUrl: "http://localhost:3000/i/abc",
  };
  for (let i = 0; i < 5; i++) await renderPdf(invoiceDocument(data)); // warm-up
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await renderPdf(invoiceDocument(data));
    times.push(performance.now() - t0);
  }
  return { perSecond: (samples * 1000) / (performance.now() - started), times };
}

async function load(url: string, total: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const post = () =>
          fetch(`${url}/api/invoices`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: body(i),
          });
        // A kept-alive socket idle past the server's 5 s keep-alive timeout (during the raw
        // render run) is closed under the client: that request is sent again on a new one.
        const response = await post().catch(post);
        await response.arrayBuffer();
        if (response.status !== 201) failures++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, perSecond: (total * 1000) / (performance.now() - started), failures };
}

export async function benchInvoiceCreation(): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = await benchEnvironment({
    blockTime: 0,
    env: { PORT: String(port), BASE_URL: url, PAY_URL: url },
  });
  const spec = apiSpec(env.settings);
  const api = spawnLogged(spec.command, spec.args, {
    env: spec.env,
    onLine: (line) => console.error(line),
  });
  try {
    await waitFor("the API", async () => (await fetch(`${url}/health`)).status > 0, {
      timeoutMs: 30_000,
    });
    await load(url, 20, 2); // warm-up: JIT, font loading, connection pool

    console.log(
      `\n# Invoice creation with PDF (${requests} requests per run, real API process and Postgres)`,
    );
    const raw = await rawRenderRate(100);
    const render = summarize(raw.times);
    console.log(
      `raw pdfmake render (same invoice)      ${raw.perSecond.toFixed(1)} PDFs/s  p50 ${render.p50.toFixed(1)} ms  p99 ${render.p99.toFixed(1)} ms`,
    );
    for (const concurrency of [1, 2, 4]) {
      const run = await load(url, requests, concurrency);
      const s = printSummary(`create, ${concurrency} concurrent client(s)`, run.latencies);
      console.log(
        `  throughput ${run.perSecond.toFixed(1)} invoices/s = ${((100 * run.perSecond) / raw.perSecond).toFixed(0)} % of raw render rate; p99 ${s.p99.toFixed(0)} ms; non-201: ${run.failures}`,
      );
      record({
        measure: `invoice creation with PDF, ${concurrency} client${concurrency > 1 ? "s" : ""}`,
        result: `${run.perSecond.toFixed(1)} invoices/s, p99 ${fmtMs(s.p99)}`,
        baseline: `raw pdfmake ${raw.perSecond.toFixed(1)} PDFs/s`,
        ratio: `${((100 * run.perSecond) / raw.perSecond).toFixed(0)} %`,
        goal: "≥ 80 %, p99 < 250 ms",
      });
    }
    console.log("goal: ≥ 80 % of the raw render rate with p99 < 250 ms at that load");
  } finally {
    await stopProcess(api);
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchInvoiceCreation();
