import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HealthReport } from "../../api/health.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startIndexer, type TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

// `npm start` is ready once the API and the worker serve; the indexer starts after them
// (platform/start.ts). This is that gap, held open: the API and the worker run, the indexer
// does not yet, and a payment lands on the chain meanwhile.
describe("a payment made before the indexer is up", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let indexer: TestProcess | undefined;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await indexer?.stop();
    await stack?.stop();
    await chain.revert();
  });

  const health = async () => {
    const response = await fetch(`${stack.api.url}/health`);
    return { code: response.status, report: (await response.json()) as HealthReport };
  };
  const status = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/status`)).json()) as { status: string };

  test("/health says the indexer is starting, and the payment is detected once it catches up", async () => {
    // Every other component up: `starting`, still 503 (a load balancer waits for detection).
    const { code, report } = await waitFor(
      "every component but the indexer up",
      async () => {
        const answer = await health();
        return answer.report.components.worker.ok && answer;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(code).toBe(503);
    expect(report.status).toBe("starting");
    expect(report.components.indexer).toMatchObject({ ok: false, starting: true });
    expect(report.components.database.ok && report.components.chain.ok).toBe(true);

    // The API serves meanwhile: an invoice is created, and paid in full on the chain.
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "42.00" }],
      }),
    });
    expect(created.status).toBe(201);
    const invoice = (await created.json()) as { invoice_id: string; deposit_address: Address };
    const paid = await chain.payUsdc(devAccount(1), invoice.deposit_address, 42_000_000n);
    expect(paid.status).toBe("success");
    // Nothing has seen it: no indexer, so no transfer and no change of status.
    expect((await status(invoice.invoice_id)).status).toBe("sent");

    indexer = await startIndexer({
      databaseUrl: stack.database.url,
      rpcUrl: chain.url,
      mnemonic: stack.mnemonic,
    });
    const detected = await waitFor(
      "the invoice paid",
      async () => {
        const body = await status(invoice.invoice_id);
        return body.status === "paid" && body;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(detected).toMatchObject({ status: "paid", tx_hash: paid.transactionHash });
    await waitFor("a healthy report", async () => (await health()).code === 200, {
      timeoutMs: EVENT_MS,
      intervalMs: 100,
    });
    expect((await health()).report.status).toBe("ok");
  });
});
