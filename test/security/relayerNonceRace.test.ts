import { sql } from "kysely";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { usdcAbi } from "../../abis/usdc.ts";
import { type Anvil, startAnvil } from "../../chain/anvil.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { freePort } from "../../internal/freePort.ts";
import { waitFor } from "../../internal/process.ts";
import { type Chain, createChain, devAccount } from "../helpers/chain.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Created = { invoice_id: string; deposit_address: Address };

/**
 * Sweeps running at once (in one worker, or in two workers
 * sharing one relayer key) used to take the same relayer nonce; the node refused one as an
 * underpriced replacement and its sweep waited a minute for a receipt that never came. Here
 * they run at once on a chain with 1 s blocks: every sweep takes a nonce of its own, all are
 * mined, and each moves its funds exactly once.
 */
describe("attack: many payments at once make sweeps race for the relayer's nonce", () => {
  let anvil: Anvil;
  let chain: Chain;
  let stack: TestStack;
  let second: TestProcess | undefined;
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey);

  beforeAll(async () => {
    anvil = await startAnvil({
      port: await freePort(),
      blockTime: 1,
      loadState: inject("usdcGenesisFile"),
    });
    chain = createChain(anvil.url);
    await chain.client.setBalance({ address: relayer.address, value: parseEther("10") });
    stack = await startStack({
      worker: true,
      indexer: true,
      rpcUrl: anvil.url,
      env: { RELAYER_PRIVATE_KEY: relayerKey, WORKER_CHAIN_CONCURRENCY: "8" },
    });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output(), second?.output());
    await second?.stop();
    await stack?.stop();
    await anvil?.stop();
  });

  /** `count` byo invoices, paid within a block or two from five accounts at once. */
  const payMany = async (count: number) => {
    const invoices = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const wallet = privateKeyToAccount(generatePrivateKey()).address;
        const amount = BigInt(1_000_000 + i);
        const response = await stack.request("/api/invoices", {
          method: "POST",
          json: invoiceRequest({
            wallet_type: "byo",
            wallet_address: wallet,
            line_items: [{ description: "Work", quantity: 1, unit_price: "1.00" }],
          }),
        });
        expect(response.status).toBe(201);
        return { ...((await response.json()) as Created), wallet, amount };
      }),
    );
    const wallet = createWalletClient({ chain: base, transport: http(anvil.url) });
    const hashes = await Promise.all(
      [0, 1, 2, 3, 4].map(async (payer) => {
        const sent: `0x${string}`[] = [];
        for (const invoice of invoices.filter((_, i) => i % 5 === payer))
          sent.push(
            await wallet.writeContract({
              account: devAccount(3 + payer),
              address: USDC_ADDRESS,
              abi: usdcAbi,
              functionName: "transfer",
              args: [invoice.deposit_address, invoice.amount],
            }),
          );
        return sent;
      }),
    );
    for (const hash of hashes.flat())
      await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return invoices;
  };

  const expectSweptOnceEach = async (invoices: Awaited<ReturnType<typeof payMany>>) => {
    await waitFor(
      "every wallet to be paid and every sweep confirmed",
      async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from app.sweeps
           where status = 'confirmed' and deposit_address = any(${invoices.map((i) => i.deposit_address.toLowerCase())}::text[])`.execute(
          stack.db,
        );
        return rows[0]?.n === invoices.length;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    for (const invoice of invoices) {
      // The sweep policy moves the invoice's total (1.00); the few units over it that make
      // each payment distinct are excess, held on the deposit address for a refund.
      expect(await chain.usdcBalance(invoice.wallet)).toBe(1_000_000n);
      expect(await chain.usdcBalance(invoice.deposit_address)).toBe(invoice.amount - 1_000_000n);
    }
    const { rows: sweeps } = await sql<{ deposit_address: string; sequence: number }>`
      select deposit_address, sequence from app.sweeps
       where deposit_address = any(${invoices.map((i) => i.deposit_address.toLowerCase())}::text[])`.execute(
      stack.db,
    );
    expect(sweeps).toHaveLength(invoices.length);
    expect(sweeps.every((sweep) => sweep.sequence === 1)).toBe(true);
    const { rows: relayed } = await sql<{
      nonce: string;
      status: string;
      receipt_status: string | null;
    }>`select r.nonce::text, r.status, r.receipt_status
         from app.relayer_transactions r
         join app.sweeps s on r.purpose like 'sweep:' || s.id || ':%'
        where s.deposit_address = any(${invoices.map((i) => i.deposit_address.toLowerCase())}::text[])`.execute(
      stack.db,
    );
    expect(relayed).toHaveLength(invoices.length);
    expect(new Set(relayed.map((row) => row.nonce)).size).toBe(invoices.length);
    expect(relayed.every((row) => row.status === "mined" && row.receipt_status === "success")).toBe(
      true,
    );
  };

  const nodeRefusals = (output: string) =>
    output.match(/underpriced|nonce too low|timed out while waiting for transaction/gi) ?? [];

  test("ten sweeps at once in one worker take ten distinct nonces, all mined, each once", async () => {
    await expectSweptOnceEach(await payMany(10));
    expect(nodeRefusals(stack.worker?.output() ?? "")).toEqual([]);
  }, 180_000);

  test("twenty sweeps at once through two workers sharing the relayer: twenty distinct nonces, all mined, each once", async () => {
    second = stack.startWorker({ RELAYER_PRIVATE_KEY: relayerKey, WORKER_CHAIN_CONCURRENCY: "8" });
    await waitFor("the second worker to run", async () => /running/.test(second?.output() ?? ""), {
      timeoutMs: EVENT_MS,
    });
    await expectSweptOnceEach(await payMany(20));
    const outputs = [stack.worker?.output() ?? "", second.output()];
    // Both workers took part, and the node refused nothing.
    for (const output of outputs) expect(output).toMatch(/submitted sweep/);
    expect(outputs.flatMap(nodeRefusals)).toEqual([]);
    // One sequence for the key: the nonces of both tests are 0, 1, 2, … with no gap.
    const { rows } = await sql<{ n: number }>`
      select nonce::int as n from app.relayer_transactions order by nonce`.execute(stack.db);
    expect(rows.map((row) => row.n)).toEqual(rows.map((_, i) => i));
    expect(
      await chain.client.getTransactionCount({ address: relayer.address, blockTag: "latest" }),
    ).toBe(rows.length);
  }, 180_000);
});
