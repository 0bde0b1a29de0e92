import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startCommitDroppingProxy } from "../helpers/commitDroppingProxy.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * Ponder runs a block's handlers and writes their rows in one transaction, and when any part of
 * it fails, the COMMIT included, it runs the whole transaction again. Its row cache kept the rows
 * of the attempt whose COMMIT failed, so the retry's insert of the same transfer found it "there"
 * and wrote nothing: the block was committed without the payment, never to be indexed again (the
 * likely way the fault suite's "database connections exhausted" once lost a payment as "not
 * indexed": its log did not show the COMMIT). The fault here
 * is exact: the indexer's connection is dropped at the COMMIT of the block holding the payment.
 */
describe("an indexed transfer survives a block whose COMMIT fails", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let proxy: Awaited<ReturnType<typeof startCommitDroppingProxy>>;
  beforeAll(async () => {
    await chain.snapshot();
    const database = await createTestDatabase();
    proxy = await startCommitDroppingProxy(database.url);
    stack = await startStack({
      database,
      worker: true,
      indexer: true,
      indexerDatabaseUrl: proxy.url,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await proxy?.stop();
    await chain.revert();
  });

  test("the retried block stores the payment, once", async () => {
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "25.00" }],
      }),
    });
    expect(created.status).toBe(201);
    const invoice = (await created.json()) as { invoice_id: string; deposit_address: Address };
    proxy.dropCommitAfter(/^\s*insert into [^(]*"usdc_transfer"/i);
    const paid = await chain.payUsdc(devAccount(1), invoice.deposit_address, 25_000_000n);

    const status = await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid", EVENT_MS);
    expect(status).toMatchObject({ paid_amount: "25.00", tx_hash: paid.transactionHash });
    // The fault happened: the block's first COMMIT never reached the server.
    expect(proxy.dropped()).toBe(1);
    const schema = stack.indexer?.schema as string;
    expect(await indexedTransfersTo(stack.db, schema, invoice.deposit_address)).toEqual([
      expect.objectContaining({ txHash: paid.transactionHash, value: 25_000_000n }),
    ]);
  });
});
