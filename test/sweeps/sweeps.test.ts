import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { type Address, createWalletClient, encodeFunctionData, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { usdcAbi } from "../../abis/usdc.ts";
import { usdcOwner } from "../../chain/deployUsdc.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { sweepNonce } from "../../domain/sweepNonce.ts";
import { waitFor } from "../../internal/process.ts";
import { runCli } from "../cli/run.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;
type Sweep = {
  sequence: number;
  amount: string;
  destination: string;
  status: string;
  tx_hash: string | null;
  error: string | null;
  indexed: boolean;
};

describe("settlement: deposits are swept to the merchant's wallet", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  // A relayer of its own, so the "no ETH" test can starve it without touching anyone else.
  const relayerPrivateKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerPrivateKey);

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({ address: relayer.address, value: parseEther("1") });
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { RELAYER_PRIVATE_KEY: relayerPrivateKey },
    });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await chain.revert();
  });

  const create = async (overrides: Json) =>
    (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceRequest(overrides) })
    ).json()) as Json & {
      invoice_id: string;
      deposit_address: Address;
    };
  const sweepsOf = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}`)).json()) as {
      sweeps: Sweep[];
      wallet_address: Address;
    };
  const until = (what: string, probe: () => Promise<unknown>) =>
    waitFor(what, probe as never, { timeoutMs: EVENT_MS, intervalMs: 100 });
  const oneItem = (price: string) => ({
    line_items: [{ description: "Work", quantity: 1, unit_price: price }],
  });

  test("byo: the merchant's wallet receives the amount, the deposit is emptied, the invoice shows the sweep", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("40.00"),
    });
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 40_000_000n);
    await until(
      "the wallet to be paid",
      async () => (await chain.usdcBalance(wallet)) === 40_000_000n,
    );
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    // The indexer sees the sweep's transfer and the worker marks it confirmed: two processes
    // with no order between them, so wait for both effects before asserting either.
    const { sweeps } = (await until("the sweep indexed and confirmed", async () => {
      const details = await sweepsOf(invoice.invoice_id);
      const sweep = details.sweeps[0];
      return sweep?.indexed && sweep.status === "confirmed" && details;
    })) as { sweeps: Sweep[] };
    expect(sweeps).toEqual([
      expect.objectContaining({
        sequence: 1,
        amount: "40.00",
        destination: wallet,
        status: "confirmed",
        tx_hash: expect.stringMatching(/^0x/),
        error: null,
        indexed: true,
      }),
    ]);
    // A sweep is not a payment: the invoice stays paid with 40.00 received.
    expect(
      ((await (await stack.request(`/api/invoices/${invoice.invoice_id}/status`)).json()) as Json)
        .paid_amount,
    ).toBe("40.00");
  });

  test("managed: the merchant's managed wallet receives both invoices' funds", async () => {
    const merchant = `m-${randomUUID()}@example.com`;
    const first = await create({ merchant_email: merchant, ...oneItem("10.00") });
    const second = await create({ merchant_email: merchant, ...oneItem("15.00") });
    const wallet = (await sweepsOf(first.invoice_id)).wallet_address;
    expect((await sweepsOf(second.invoice_id)).wallet_address).toBe(wallet);
    await chain.payUsdc(devAccount(2), first.deposit_address, 10_000_000n);
    await chain.payUsdc(devAccount(2), second.deposit_address, 15_000_000n);
    await until(
      "the managed wallet to hold both",
      async () => (await chain.usdcBalance(wallet)) === 25_000_000n,
    );
  });

  const sweepRows = async (address: Address) =>
    (
      await stack.db
        .selectFrom("app.sweeps")
        .selectAll()
        .where("deposit_address", "=", address.toLowerCase())
        .orderBy("sequence")
        .execute()
    ).map((r) => [r.sequence, r.status, r.amount]);
  /**
   * The address's sweeps once none is in flight: the wallet's balance can change before the
   * worker has recorded the receipt.
   */
  const settledSweeps = (address: Address) =>
    until("the sweeps recorded", async () => {
      const rows = await sweepRows(address);
      return rows.every((row) => row[1] === "confirmed" || row[1] === "failed") && rows;
    });
  /** No job due: a partial payment's sweep waits, scheduled hours ahead (SWEEP_PARTIAL_AFTER). */
  const workerIdle = () =>
    until("every due job done", async () => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from graphile_worker.jobs where run_at <= now()`.execute(
        stack.db,
      );
      return rows[0]?.n === 0;
    });

  // Remit used to sweep every payment at once, partial ones too; the sweep policy
  // (domain/sweepPolicy.ts) holds a partial payment until the invoice is settled.
  test("partial then completing payment: nothing is swept while partial, then the total once", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("30.00"),
    });
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 12_000_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "partial", EVENT_MS);
    // The partial payment's reconcile has run and queued no sweep: nothing moved.
    await workerIdle();
    expect(await chain.usdcBalance(wallet)).toBe(0n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(12_000_000n);
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 18_000_000n);
    await until("all of it swept", async () => (await chain.usdcBalance(wallet)) === 30_000_000n);
    expect(await settledSweeps(invoice.deposit_address)).toEqual([[1, "confirmed", 30_000_000n]]);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
  });

  test("a payer paying in parts races no sweep: the top-up, estimated right after the first part is counted, succeeds; the wallet receives the total once", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("3.00"),
    });
    const payer = devAccount(8);
    await chain.payUsdc(payer, invoice.deposit_address, 1_000_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "partial", EVENT_MS);
    // As a wallet does it: estimate the top-up against the deposit's balance as it is now
    // (1.00, so a non-zero balance slot) and send it with exactly that gas. Had a sweep
    // emptied the address in between, the transfer would need more gas and revert.
    const data = encodeFunctionData({
      abi: usdcAbi,
      functionName: "transfer",
      args: [invoice.deposit_address, 2_000_000n],
    });
    const gas = await chain.client.estimateGas({ account: payer, to: USDC_ADDRESS, data });
    const hash = await createWalletClient({
      chain: base,
      transport: http(chain.url),
    }).sendTransaction({
      account: payer,
      to: USDC_ADDRESS,
      data,
      gas,
    });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    expect(receipt.gasUsed).toBeLessThanOrEqual(gas);
    expect(
      await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid", EVENT_MS),
    ).toMatchObject({
      paid_amount: "3.00",
      tx_hash: hash,
    });
    await until("the total swept", async () => (await chain.usdcBalance(wallet)) === 3_000_000n);
    await workerIdle();
    expect(await settledSweeps(invoice.deposit_address)).toEqual([[1, "confirmed", 3_000_000n]]);
    expect(await chain.usdcBalance(wallet)).toBe(3_000_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
  });

  test("excess: exactly the total is swept, the excess stays on the deposit address, and so does a payment after the sweep", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("5.00"),
    });
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 5_500_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "excess", EVENT_MS);
    await until("the total swept", async () => (await chain.usdcBalance(wallet)) === 5_000_000n);
    await workerIdle();
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(500_000n);

    await chain.payUsdc(devAccount(2), invoice.deposit_address, 1_000_000n);
    await until("the late payment counted", async () => {
      const body = (await (
        await stack.request(`/api/invoices/${invoice.invoice_id}/status`)
      ).json()) as Json;
      return body.paid_amount === "6.50";
    });
    await workerIdle();
    expect(await chain.usdcBalance(wallet)).toBe(5_000_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(1_500_000n);
    expect(await settledSweeps(invoice.deposit_address)).toEqual([[1, "confirmed", 5_000_000n]]);
  });

  test("a link takes many payments: each whole amount is swept, the start of the next one is held", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const response = await stack.request("/api/links", {
      method: "POST",
      json: linkRequest({ amount: "2.00", wallet_type: "byo", wallet_address: wallet }),
    });
    const link = (await response.json()) as { slug: string; deposit_address: Address };
    await chain.payUsdc(devAccount(4), link.deposit_address, 2_000_000n);
    await until(
      "the first payment swept",
      async () => (await chain.usdcBalance(wallet)) === 2_000_000n,
    );
    // A second buyer pays in two parts: the first part is held, not swept under them.
    await chain.payUsdc(devAccount(5), link.deposit_address, 500_000n);
    await until("the part counted", async () => {
      const body = (await (
        await stack.request(`/api/payments/status/${link.slug}`)
      ).json()) as Json;
      return body.amount_usdc === "2.50";
    });
    await workerIdle();
    expect(await chain.usdcBalance(wallet)).toBe(2_000_000n);
    await chain.payUsdc(devAccount(5), link.deposit_address, 1_500_000n);
    await until(
      "the second payment swept",
      async () => (await chain.usdcBalance(wallet)) === 4_000_000n,
    );
    expect(await settledSweeps(link.deposit_address)).toEqual([
      [1, "confirmed", 2_000_000n],
      [2, "confirmed", 2_000_000n],
    ]);
    expect(await chain.usdcBalance(link.deposit_address)).toBe(0n);
  });

  test("the sweep job run twice at once and again afterwards moves the funds exactly once", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("7.00"),
    });
    await chain.payUsdc(devAccount(4), invoice.deposit_address, 7_000_000n);
    const address = invoice.deposit_address.toLowerCase();
    // Duplicates of the job the payment queued, under other keys so none collapses.
    for (const suffix of ["a", "b"]) {
      await stack.db.executeQuery({
        sql: "select graphile_worker.add_job('sweep_deposit', json_build_object('address', $1::text), job_key => $2)",
        parameters: [address, `dup-${suffix}-${address}`],
        query: { kind: "RawNode" } as never,
      } as never);
    }
    await until("swept", async () => (await chain.usdcBalance(wallet)) === 7_000_000n);
    await until("every job done", async () => {
      const rows = await stack.db
        .selectFrom("graphile_worker.jobs" as never)
        .selectAll()
        .execute();
      return rows.length === 0;
    });
    await stack.db.executeQuery({
      sql: "select graphile_worker.add_job('sweep_deposit', json_build_object('address', $1::text))",
      parameters: [address],
      query: { kind: "RawNode" } as never,
    } as never);
    await until(
      "every job done again",
      async () =>
        (
          await stack.db
            .selectFrom("graphile_worker.jobs" as never)
            .selectAll()
            .execute()
        ).length === 0,
    );
    expect(await chain.usdcBalance(wallet)).toBe(7_000_000n);
    const rows = await stack.db
      .selectFrom("app.sweeps")
      .selectAll()
      .where("deposit_address", "=", address)
      .execute();
    expect(rows.map((r) => [r.sequence, r.status, r.amount])).toEqual([
      [1, "confirmed", 7_000_000n],
    ]);
  });

  test("a destination USDC blacklists fails the sweep for good, surfaced", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    await chain.client.setBalance({ address: usdcOwner.address, value: parseEther("1") });
    const owner = createWalletClient({
      transport: http(chain.url),
      account: usdcOwner,
      chain: base,
    });
    const hash = await owner.writeContract({
      address: USDC_ADDRESS,
      abi: [
        {
          type: "function",
          name: "blacklist",
          stateMutability: "nonpayable",
          inputs: [{ name: "a", type: "address" }],
          outputs: [],
        },
      ] as const,
      functionName: "blacklist",
      args: [wallet],
    });
    await chain.client.waitForTransactionReceipt({ hash });
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("5.00"),
    });
    await chain.payUsdc(devAccount(5), invoice.deposit_address, 5_000_000n);
    const { sweeps } = (await until("the failed sweep", async () => {
      const details = await sweepsOf(invoice.invoice_id);
      return details.sweeps[0]?.status === "failed" && details;
    })) as { sweeps: Sweep[] };
    expect(sweeps[0]?.error).toMatch(/blacklisted/);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(5_000_000n);
    const health = (await (await stack.request("/health")).json()) as {
      components: { relayer: Json };
    };
    expect(health.components.relayer).toMatchObject({ ok: false, failing_sweeps: 1 });
  });

  test("a relayer without ETH: the failure is surfaced; once funded, the sweep completes", async () => {
    await chain.client.setBalance({ address: relayer.address, value: 0n });
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("9.00"),
    });
    await chain.payUsdc(devAccount(6), invoice.deposit_address, 9_000_000n);
    const failing = (await until("the sweep to fail", async () => {
      const details = await sweepsOf(invoice.invoice_id);
      return details.sweeps[0]?.error && details;
    })) as { sweeps: Sweep[] };
    expect(failing.sweeps[0]?.error).toMatch(/too little ETH/);
    // /health caches its chain probe for a second: poll until the probe has seen the balance.
    const relayerHealth = await until("health to see the empty relayer", async () => {
      const health = (await (await stack.request("/health")).json()) as {
        components: { relayer: Json & { eth_wei?: string } };
      };
      return health.components.relayer.eth_wei === "0" && health.components.relayer;
    });
    expect(relayerHealth).toMatchObject({ ok: false, eth_wei: "0" });
    expect(await chain.usdcBalance(wallet)).toBe(0n);

    await chain.client.setBalance({ address: relayer.address, value: parseEther("1") });
    await until("the retried sweep", async () => (await chain.usdcBalance(wallet)) === 9_000_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
  });

  test("SWEEP=off leaves funds on the deposit address; `remit deposits` lists and sweeps them", async () => {
    const manual = await startStack({
      worker: true,
      indexer: true,
      env: { SWEEP: "off", RELAYER_PRIVATE_KEY: relayerPrivateKey },
    });
    try {
      const wallet = privateKeyToAccount(generatePrivateKey()).address;
      const response = await manual.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({ wallet_type: "byo", wallet_address: wallet, ...oneItem("3.00") }),
      });
      const invoice = (await response.json()) as { invoice_id: string; deposit_address: Address };
      await chain.payUsdc(devAccount(7), invoice.deposit_address, 3_000_000n);
      await until(
        "paid",
        async () =>
          (
            (await (
              await manual.request(`/api/invoices/${invoice.invoice_id}/status`)
            ).json()) as Json
          ).status === "paid",
      );
      await until(
        "the worker idle",
        async () =>
          (
            await manual.db
              .selectFrom("graphile_worker.jobs" as never)
              .selectAll()
              .execute()
          ).length === 0,
      );
      expect(await manual.db.selectFrom("app.sweeps").selectAll().execute()).toEqual([]);
      expect(await chain.usdcBalance(invoice.deposit_address)).toBe(3_000_000n);

      const options = ["--database-url", manual.database.url, "--rpc-url", chain.url];
      const listed = await runCli(["deposits", "list", ...options]);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        {
          deposit_address: invoice.deposit_address,
          owner: "INV-0001",
          destination: wallet,
          balance: "3.00",
        },
      ]);
      const swept = await runCli(["deposits", "sweep", ...options]);
      expect(swept.code).toBe(0);
      await until(
        "the recovered funds",
        async () => (await chain.usdcBalance(wallet)) === 3_000_000n,
      );
      expect(JSON.parse((await runCli(["deposits", "list", ...options])).stdout)).toEqual([]);
    } finally {
      await manual.stop();
    }
  });

  test("a sweep signed for money the address no longer holds (a payment the chain forgot) is not retried for ever nor reported failing; the next payment has it moved", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await create({
      wallet_type: "byo",
      wallet_address: wallet,
      ...oneItem("7.00"),
    });
    const address = invoice.deposit_address.toLowerCase();
    const failingSweeps = async () =>
      (
        (await (await stack.request("/health")).json()) as {
          components: { relayer?: { failing_sweeps: number } };
        }
      ).components.relayer?.failing_sweeps;
    const failingBefore = await failingSweeps();
    // What a sweep signed for a payment of 7 USDC that the chain then forgot leaves behind
    // (USDC refuses it: "transfer amount exceeds balance").
    await stack.db
      .insertInto("app.sweeps")
      .values({
        deposit_address: address,
        sequence: 1,
        nonce: sweepNonce(invoice.deposit_address, 1),
        destination: wallet,
        amount: 7_000_000n,
        error: "its relayer nonce was used by another transaction; submitting again",
      })
      .execute();
    await stack.db.executeQuery({
      sql: "select graphile_worker.add_job('sweep_deposit', json_build_object('address', $1::text))",
      parameters: [address],
      query: { kind: "RawNode" } as never,
    } as never);
    // Done in one run: a job that threw would wait in the queue for its retry.
    await until(
      "the sweep job done",
      async () =>
        (
          await stack.db
            .selectFrom("graphile_worker.jobs" as never)
            .selectAll()
            .execute()
        ).length === 0,
    );
    const sweepRows = () =>
      stack.db
        .selectFrom("app.sweeps")
        .select(["sequence", "status", "amount", "error"])
        .where("deposit_address", "=", address)
        .execute();
    // Left signed, its nonce the address's next: nobody to blame, nobody to tell.
    expect(await sweepRows()).toEqual([
      { sequence: 1, status: "signed", amount: 7_000_000n, error: null },
    ]);
    // Not among /health's failing sweeps (the blacklisted destination's above is).
    expect(await failingSweeps()).toBe(failingBefore);

    await chain.payUsdc(devAccount(4), invoice.deposit_address, 7_000_000n);
    await until("swept", async () => (await chain.usdcBalance(wallet)) === 7_000_000n);
    // Confirmed by its check a moment after its transaction is mined.
    await until("the sweep confirmed", async () =>
      (await sweepRows()).every((row) => row.status === "confirmed"),
    );
    expect(await sweepRows()).toEqual([
      { sequence: 1, status: "confirmed", amount: 7_000_000n, error: null },
    ]);
  });

  test("nothing the service prints or answers contains the seed or a private key", async () => {
    // The whole seed, any four of its words in a row, and the relayer's key with or without 0x.
    const words = stack.mnemonic.split(" ");
    const secrets = [
      stack.mnemonic,
      words.slice(0, 4).join(" "),
      words.slice(10, 14).join(" "),
      relayerPrivateKey,
      relayerPrivateKey.slice(2),
    ];
    const outputs = [
      stack.api.output(),
      stack.worker?.output() ?? "",
      stack.indexer?.output() ?? "",
    ].join("\n");
    const answers = await Promise.all(
      ["/health", "/openapi.json", "/dev/outbox"].map(async (path) =>
        (await stack.request(path)).text(),
      ),
    );
    const text = (value: unknown) =>
      JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));
    const rows = text(await stack.db.selectFrom("app.sweeps").selectAll().execute());
    const jobs = text(
      await stack.db
        .selectFrom("graphile_worker._private_jobs" as never)
        .selectAll()
        .execute(),
    );
    for (const haystack of [outputs, ...answers, rows, jobs]) {
      for (const secret of secrets) expect(haystack.includes(secret)).toBe(false);
    }
  });
});
