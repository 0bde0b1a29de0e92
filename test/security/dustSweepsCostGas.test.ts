import { sql } from "kysely";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * Every counted increase used to queue a sweep whose gas the relayer pays: a stranger sending
 * one unit of USDC to public deposit addresses, again and again, made Remit spend ETH moving
 * them. Now nothing below SWEEP_MIN_AMOUNT (default 0.10) is swept automatically, and dust
 * after a sweep is held, not swept. SWEEP_PARTIAL_AFTER is short here (2 s) so the partial-
 * payment path, where dust would otherwise be swept, runs within the test.
 */
describe("dust sent to deposit addresses costs the relayer no gas", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey);

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({ address: relayer.address, value: parseEther("1") });
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { RELAYER_PRIVATE_KEY: relayerKey, SWEEP_PARTIAL_AFTER: "2s" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  const create = async (wallet: Address) =>
    (await (
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          wallet_type: "byo",
          wallet_address: wallet,
          line_items: [{ description: "Work", quantity: 1, unit_price: "3.00" }],
        }),
      })
    ).json()) as { invoice_id: string; deposit_address: Address };
  const newWallet = () => privateKeyToAccount(generatePrivateKey()).address;
  /** Every job done, the scheduled ones (a partial payment's sweep, 2 s ahead) included. */
  const noJobsLeft = () =>
    waitFor(
      "no job left",
      async () => {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from graphile_worker.jobs`.execute(stack.db);
        return rows[0]?.n === 0;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
  const relayerTransactions = () => chain.client.getTransactionCount({ address: relayer.address });

  test("dust is never swept: not on an unpaid invoice once it is quiet, nor after a sweep", async () => {
    // An unpaid invoice: one unit makes it partial; once quiet for SWEEP_PARTIAL_AFTER the
    // policy looks again, and 0.000001 is below SWEEP_MIN_AMOUNT.
    const dusted = await create(newWallet());
    await chain.payUsdc(devAccount(1), dusted.deposit_address, 1n);
    await waitForInvoiceStatus(stack.api.url, dusted.invoice_id, "partial", EVENT_MS);
    await noJobsLeft();

    // A paid invoice, swept; then dust arrives after the sweep.
    const paidWallet = newWallet();
    const paid = await create(paidWallet);
    await chain.payUsdc(devAccount(2), paid.deposit_address, 3_000_000n);
    await waitFor(
      "the total swept",
      async () => (await chain.usdcBalance(paidWallet)) === 3_000_000n,
    );
    await noJobsLeft();
    const afterSweep = await relayerTransactions();
    for (let i = 0; i < 3; i++) await chain.payUsdc(devAccount(1), paid.deposit_address, 1n);
    await waitFor("the dust counted", async () => {
      const body = (await (
        await stack.request(`/api/invoices/${paid.invoice_id}/status`)
      ).json()) as { paid_amount?: string; status: string };
      return body.paid_amount === "3.000003" && body;
    });
    await noJobsLeft();

    expect(afterSweep).toBe(1);
    expect(await relayerTransactions()).toBe(1);
    expect(await chain.usdcBalance(dusted.deposit_address)).toBe(1n);
    expect(await chain.usdcBalance(paid.deposit_address)).toBe(3n);
    const sweeps = await stack.db
      .selectFrom("app.sweeps")
      .select(["deposit_address", "amount"])
      .execute();
    expect(sweeps).toEqual([
      { deposit_address: paid.deposit_address.toLowerCase(), amount: 3_000_000n },
    ]);
  });

  test("a real partial payment is swept once quiet for SWEEP_PARTIAL_AFTER, and the rest when it completes", async () => {
    const wallet = newWallet();
    const invoice = await create(wallet);
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 1_000_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "partial", EVENT_MS);
    await waitFor(
      "the quiet partial payment swept",
      async () => (await chain.usdcBalance(wallet)) === 1_000_000n,
      {
        timeoutMs: EVENT_MS,
        intervalMs: 100,
      },
    );
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 2_000_000n);
    await waitFor("the rest swept", async () => (await chain.usdcBalance(wallet)) === 3_000_000n, {
      timeoutMs: EVENT_MS,
      intervalMs: 100,
    });
    const rows = await stack.db
      .selectFrom("app.sweeps")
      .select(["sequence", "amount", "status"])
      .where("deposit_address", "=", invoice.deposit_address.toLowerCase())
      .orderBy("sequence")
      .execute();
    expect(rows.map((r) => [r.sequence, r.amount])).toEqual([
      [1, 1_000_000n],
      [2, 2_000_000n],
    ]);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
  });
});
