import { sql } from "kysely";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { usdcOwner } from "../../chain/deployUsdc.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;
type Sweep = { sequence: number; amount: string; status: string; error: string | null };

const blacklistAbi = (name: "blacklist" | "unBlacklist") =>
  [
    {
      type: "function",
      name,
      stateMutability: "nonpayable",
      inputs: [{ name: "a", type: "address" }],
      outputs: [],
    },
  ] as const;

/**
 * A payout wallet that can never receive a sweep (the zero address, the USDC
 * contract, one of the service's deposit addresses, its relayer) was accepted, and its sweep
 * reverted with an error not taken as permanent: retried 25 times, blocking later sweeps of
 * the address. Such wallets are now refused at creation; a sweep USDC refuses for good is
 * failed, its merchant told, never retried, and a later payment to the address is swept.
 */
describe("attack: a payout wallet that can never receive a sweep", () => {
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
      env: { RELAYER_PRIVATE_KEY: relayerKey },
    });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await chain.revert();
  });

  const post = async (path: string, body: Json) => {
    const response = await stack.request(path, { method: "POST", json: body });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const count = async (table: "app.invoices" | "app.payment_links") =>
    Number(
      (
        await stack.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirst()
      )?.n,
    );

  test("creation refuses each, field by field, for invoices and links, and writes nothing", async () => {
    const existing = await post("/api/invoices", invoiceRequest());
    expect(existing.status).toBe(201);
    const unreceivable: [string, string][] = [
      ["0x0000000000000000000000000000000000000000", "zero_address"],
      [USDC_ADDRESS, "usdc_contract"],
      [relayer.address, "relayer_address"],
      [existing.body.deposit_address as string, "deposit_address"],
    ];
    const [invoices, links] = [await count("app.invoices"), await count("app.payment_links")];
    for (const [wallet, code] of unreceivable) {
      for (const [path, request] of [
        ["/api/invoices", invoiceRequest],
        ["/api/links", linkRequest],
      ] as const) {
        const { status, body } = await post(
          path,
          request({ wallet_type: "byo", wallet_address: wallet }),
        );
        expect(status, `${path} ${wallet}`).toBe(400);
        expect((body.error as Json).fields).toEqual([
          { path: "wallet_address", code, message: expect.any(String) },
        ]);
      }
    }
    expect(await count("app.invoices")).toBe(invoices);
    expect(await count("app.payment_links")).toBe(links);
  });

  test("a sweep USDC refuses for good is failed once, its merchant emailed, not retried; a later payment is swept", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const merchant = `m-${crypto.randomUUID()}@example.com`;
    const created = await post(
      "/api/invoices",
      invoiceRequest({
        merchant_email: merchant,
        wallet_type: "byo",
        wallet_address: wallet,
        line_items: [{ description: "Work", quantity: 1, unit_price: "5.00" }],
      }),
    );
    const invoice = created.body as { invoice_id: string; deposit_address: Address };
    // Accepted at creation, blacklisted by USDC afterwards: no check at creation can foresee it.
    await setBlacklisted(wallet, true);
    await chain.payUsdc(devAccount(5), invoice.deposit_address, 5_000_000n);

    const sweepsOf = async () =>
      (
        (await (await stack.request(`/api/invoices/${invoice.invoice_id}`)).json()) as {
          sweeps: Sweep[];
        }
      ).sweeps;
    const [failed] = await waitFor("the failed sweep", async () => {
      const sweeps = await sweepsOf();
      return sweeps[0]?.status === "failed" && sweeps;
    });
    expect(failed?.error).toMatch(/Blacklistable: account is blacklisted/);
    const email = await stack.waitForEmail(
      (e) => e.to.includes(merchant) && /could not be moved to your wallet/.test(e.subject),
    );
    expect(email.text).toContain(wallet);
    expect(email.text).toContain("5.00 USDC");

    // Not retried: no sweep job waits, and the sweep's submissions stay at none.
    await waitFor("the worker idle", async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from graphile_worker.jobs where task_identifier in ('sweep_deposit', 'check_sweep')`.execute(
        stack.db,
      );
      return rows[0]?.n === 0;
    });
    const { rows: submissions } = await sql<{ attempts: number }>`
      select attempts from app.sweeps where deposit_address = ${invoice.deposit_address.toLowerCase()}`.execute(
      stack.db,
    );
    expect(submissions).toEqual([{ attempts: 0 }]);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(5_000_000n);

    // The address is not blocked: once the cause is gone, the next payment's sweep moves the
    // invoice's total (the sweep policy); the 2.00 over it is excess, held for a refund.
    await setBlacklisted(wallet, false);
    await chain.payUsdc(devAccount(5), invoice.deposit_address, 2_000_000n);
    await waitFor("the total swept", async () => (await chain.usdcBalance(wallet)) === 5_000_000n, {
      timeoutMs: EVENT_MS,
      intervalMs: 100,
    });
    const sweeps = await waitFor("the second sweep confirmed", async () => {
      const all = await sweepsOf();
      return all[1]?.status === "confirmed" && all;
    });
    expect(sweeps.map((s) => [s.sequence, s.status, s.amount])).toEqual([
      [1, "failed", "5.00"],
      [2, "confirmed", "5.00"],
    ]);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(2_000_000n);
  });

  async function setBlacklisted(address: Address, on: boolean): Promise<void> {
    await chain.client.setBalance({ address: usdcOwner.address, value: parseEther("1") });
    const owner = createWalletClient({
      transport: http(chain.url),
      account: usdcOwner,
      chain: base,
    });
    const hash = await owner.writeContract({
      address: USDC_ADDRESS,
      abi: blacklistAbi(on ? "blacklist" : "unBlacklist"),
      functionName: on ? "blacklist" : "unBlacklist",
      args: [address],
    });
    await chain.client.waitForTransactionReceipt({ hash });
  }
});
