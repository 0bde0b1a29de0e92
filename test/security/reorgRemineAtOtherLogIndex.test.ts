import type { Address, Hash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;
type Payment = { tx_hash: Hash; log_index: number; amount: string; counted: boolean };

/**
 * A reorg re-mines a counted payment's very transaction, but behind another USDC transfer in
 * its block: its Transfer log, and so the transfer's id `<tx hash>-<log index>`, changes. The
 * reconcile job used to see the old id as lost while its transaction was still mined, and
 * re-queue itself every second forever: later payments to the address were never counted.
 */
describe("a payment re-mined at another log index", () => {
  const chain = useChainForFile();
  let stack: TestStack;

  beforeAll(async () => {
    await chain.snapshot();
    // SWEEP off: a sweep mined between reading the head and anvil_reorg would shift the depth.
    stack = await startStack({ worker: true, indexer: true, env: { SWEEP: "off" } });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await chain.revert();
  });

  const status = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/status`)).json()) as Json;
  const waitForStatus = (id: string, expected: string) =>
    waitForInvoiceStatus(stack.api.url, id, expected, EVENT_MS);
  const payments = async (id: string) =>
    ((await (await stack.request(`/api/invoices/${id}`)).json()) as { payments: Payment[] })
      .payments;

  test("counts it once, keeps the status, and counts the payment after it", async () => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "150.00" }],
      }),
    });
    const invoice = (await response.json()) as { invoice_id: string; deposit_address: Address };

    // 100.00 of 150.00, as a signed transaction the reorg can include again.
    const signed = await chain.signUsdcTransfer(
      devAccount(6),
      invoice.deposit_address,
      100_000_000n,
    );
    const first = await chain.sendRaw(signed);
    await waitForStatus(invoice.invoice_id, "partial");
    expect(first.logs[0]?.logIndex).toBe(0);

    // The new branch's first block holds an unrelated USDC transfer, then the same payment.
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const before = await chain.signUsdcTransfer(devAccount(7), stranger, 1n);
    const depth = Number((await chain.client.getBlockNumber()) - first.blockNumber) + 1;
    await chain.client.request({
      method: "anvil_reorg" as never,
      params: [
        depth,
        [
          [before, 0],
          [signed, 0],
        ],
      ] as never,
    });
    await chain.mine(1); // a block on top of the new branch, so the indexer notices the reorg
    const remined = await chain.client.getTransactionReceipt({ hash: first.transactionHash });
    expect(remined.logs.map((log) => log.logIndex)).toEqual([1]);

    // The re-mined transfer is the one counted, and nothing was reversed.
    await waitFor(
      "the re-mined transfer counted",
      async () => {
        const list = await payments(invoice.invoice_id);
        return list.length === 1 && list[0]?.log_index === 1 && list[0].counted;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(await status(invoice.invoice_id)).toMatchObject({
      status: "partial",
      paid_amount: "100.00",
      tx_hash: first.transactionHash,
    });

    // A later payment to the same address is counted at once.
    const second = await chain.payUsdc(devAccount(8), invoice.deposit_address, 50_000_000n);
    expect(await waitForStatus(invoice.invoice_id, "paid")).toMatchObject({
      paid_amount: "150.00",
      tx_hash: second.transactionHash,
    });
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select(["type", "paid_amount"])
      .where("invoice_id", "=", invoice.invoice_id)
      .orderBy("created_at")
      .execute();
    expect(events.map((e) => [e.type, e.paid_amount])).toEqual([
      ["invoice.partial", 100_000_000n],
      ["invoice.paid", 150_000_000n],
    ]);
  });
});
