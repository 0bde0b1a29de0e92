import { sql } from "kysely";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

const USDC = (amount: number) => BigInt(Math.round(amount * 1_000_000));
/**
 * A worker's start, an indexed payment, a catch-up: seconds on a quiet machine; this is an
 * upper bound for one three times slower than a busy CI runner.
 */
const UP_TO_MS = 90_000;

describe("payments made while the worker was down", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let worker: TestProcess | undefined;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ indexer: true, env: { SWEEP: "off" } });
  });
  afterAll(async () => {
    await worker?.stop();
    await stack?.stop();
    await chain.revert();
  });

  const createInvoice = async () => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "25.00" }],
      }),
    });
    return (await response.json()) as { invoice_id: string; deposit_address: Address };
  };
  const status = async (id: string) =>
    ((await (await stack.request(`/api/invoices/${id}/status`)).json()) as { status: string })
      .status;
  const indexed = async (address: Address) =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(`${stack.indexer?.schema}.usdc_transfer`)} where "to" = ${address.toLowerCase()}`.execute(
        stack.db,
      )
    ).rows[0]?.n ?? 0;

  test("are found by the restarted worker: queued by the trigger, or by the catch-up when no job was queued", async () => {
    worker = stack.startWorker();
    // The worker is running once it has installed its trigger and run its catch-up.
    await waitFor(
      "the first worker's catch-up",
      async () => /start-up catch-up/.test(worker?.output() ?? ""),
      { timeoutMs: UP_TO_MS },
    );
    const queuedByTrigger = await createInvoice();
    const unqueued = await createInvoice();
    await worker.stop();
    worker = undefined;

    await chain.payUsdc(devAccount(1), queuedByTrigger.deposit_address, USDC(25));
    await waitFor(
      "the first payment indexed",
      async () => (await indexed(queuedByTrigger.deposit_address)) === 1,
      { timeoutMs: UP_TO_MS },
    );
    // As for a new indexer schema that no worker has put its trigger on yet: the second
    // payment is indexed with no reconcile job queued for it.
    await sql`drop trigger remit_reconcile on ${sql.table(`${stack.indexer?.schema}.usdc_transfer`)}`.execute(
      stack.db,
    );
    await chain.payUsdc(devAccount(1), unqueued.deposit_address, USDC(25));
    await waitFor(
      "the second payment indexed",
      async () => (await indexed(unqueued.deposit_address)) === 1,
      { timeoutMs: UP_TO_MS },
    );
    const queued = await sql<{
      key: string;
    }>`select key from graphile_worker._private_jobs where key like 'reconcile:%'`.execute(
      stack.db,
    );
    expect(queued.rows.map((row) => row.key)).toEqual([
      `reconcile:${queuedByTrigger.deposit_address.toLowerCase()}`,
    ]);
    expect(await status(queuedByTrigger.invoice_id)).toBe("sent");
    expect(await status(unqueued.invoice_id)).toBe("sent");

    worker = stack.startWorker();
    for (const invoice of [queuedByTrigger, unqueued])
      await waitFor(
        "the payment acknowledged after the restart",
        async () => (await status(invoice.invoice_id)) === "paid",
        { timeoutMs: UP_TO_MS, intervalMs: 100 },
      );
  }, 300_000);
});
