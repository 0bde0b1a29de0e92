import { sql } from "kysely";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { indexedHead, indexedTransfersTo } from "../../db/queries/indexer.ts";
import { LISTENER_APPLICATION_NAME } from "../../indexer/depositAddresses.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The attack (or just bad luck): the indexer learns new deposit addresses through one LISTEN
 * connection. When that connection dies, new invoices' payments go unmatched. A connection that
 * Postgres ends is noticed (an error); one a NAT or firewall drops in silence was not, ever: the
 * indexer kept matching against the set it had, and every later invoice's payment was ignored.
 * Now the connection has TCP keepalive and must answer every few seconds, recent addresses are
 * reloaded every minute, and transfers to an address learnt late are found on the chain
 * (eth_getLogs over the gap) and stored as live ones are.
 *
 * A silent drop is played by freezing the listener's backend (SIGSTOP): its socket stays open
 * and nothing comes through it, exactly what a dropped NAT mapping looks like from the client.
 */
describe("the indexer's LISTEN connection for new deposit addresses", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  /** The backend of the indexer's listening connection, other than those in `not`. */
  const listener = (...not: number[]) =>
    waitFor(
      "the indexer's listening connection",
      async () => {
        const { rows } = await sql<{ pid: number }>`
          select pid from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME}
            and datname = current_database() and pid <> all(${not}::int[])`.execute(stack.db);
        return rows[0]?.pid;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
  const createInvoice = async () => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "25.00" }],
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { invoice_id: string; deposit_address: Address };
  };

  test("ended by Postgres (pg_terminate_backend): a new invoice's payment is indexed", async () => {
    const before = await listener();
    await sql`select pg_terminate_backend(${before})`.execute(stack.db);
    const invoice = await createInvoice();
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 25_000_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid", EVENT_MS);
    expect(await listener(before)).not.toBe(before);
  });

  test("dropped in silence: found deaf, replaced, and the payment it missed is caught up", async () => {
    const schema = stack.indexer?.schema as string;
    const frozenPids: number[] = [];
    /**
     * Freezes the listener, then creates an invoice and pays it. The set asks its connection to
     * answer every 3 s within 3 s, so on a slow moment the frozen one can be replaced before the
     * indexer reaches the payment, which is then matched live and missed by nobody: that round
     * is played again with the new listener frozen, until a payment is missed.
     */
    const missPayment = async () => {
      for (let round = 1; ; round++) {
        const frozen = await listener(...frozenPids);
        process.kill(frozen, "SIGSTOP");
        frozenPids.push(frozen);
        const invoice = await createInvoice();
        const paid = await chain.payUsdc(devAccount(1), invoice.deposit_address, 25_000_000n);
        // The indexer went past the payment's block, matching it against the set it had.
        await waitFor(
          "the indexer past the payment",
          async () => ((await indexedHead(stack.db, schema)) ?? -1n) >= paid.blockNumber,
          { timeoutMs: EVENT_MS, intervalMs: 100 },
        );
        const stored = await indexedTransfersTo(stack.db, schema, invoice.deposit_address);
        if (stored.length === 0) return { invoice, paid };
        if (round === 3) expect(stored).toEqual([]);
      }
    };
    try {
      const { invoice, paid } = await missPayment();
      // The unanswered connection is replaced within seconds.
      await listener(...frozenPids);
      // On Base a USDC transfer goes by every block; here one is made (to nobody of ours): the
      // handler it runs looks up what the indexer missed.
      const stranger = privateKeyToAccount(generatePrivateKey()).address;
      await chain.payUsdc(devAccount(2), stranger, 1n);
      const status = await waitForInvoiceStatus(
        stack.api.url,
        invoice.invoice_id,
        "paid",
        EVENT_MS,
      );
      expect(status).toMatchObject({ paid_amount: "25.00", tx_hash: paid.transactionHash });
      const [stored] = await indexedTransfersTo(stack.db, schema, invoice.deposit_address);
      const block = await chain.client.getBlock({ blockNumber: paid.blockNumber });
      // As the live path would have stored it: its id, block and block time.
      expect(stored).toEqual({
        id: `${paid.transactionHash}-${paid.logs[0]?.logIndex}`,
        txHash: paid.transactionHash,
        from: devAccount(1).address.toLowerCase(),
        to: invoice.deposit_address.toLowerCase(),
        value: 25_000_000n,
        blockNumber: paid.blockNumber,
        paidAt: new Date(Number(block.timestamp) * 1000),
      });
      // What the indexer says of it: where to look when a payment is reported "not indexed".
      const said = (stack.indexer?.output() ?? "").split("\n");
      const address = invoice.deposit_address.toLowerCase();
      expect(
        said.some((line) => line.includes("learnt late: owed") && line.includes(address)),
      ).toBe(true);
      expect(
        said.some(
          (line) =>
            line.includes("catch-up of deposit addresses learnt late") &&
            line.includes(paid.transactionHash.toLowerCase()),
        ),
      ).toBe(true);
      // Found once, stored once, however many transfers follow.
      await chain.payUsdc(devAccount(2), stranger, 1n);
      expect(await indexedTransfersTo(stack.db, schema, invoice.deposit_address)).toHaveLength(1);
    } finally {
      for (const pid of frozenPids) {
        process.kill(pid, "SIGCONT");
        await sql`select pg_terminate_backend(${pid})`.execute(stack.db);
      }
    }
  });
});
