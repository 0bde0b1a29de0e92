import { type Address, createWalletClient, type Hash, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { deployOtherToken, sendTokenTransfer } from "../helpers/otherToken.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Lookup = {
  tx_hash: string;
  network: string;
  state: string;
  message: string;
  transfers: Record<string, unknown>[];
};

/** What GET /api/transactions/{tx_hash} explains, case by case, on the real stack. */
describe("GET /api/transactions/{tx_hash}: what Remit sees of a Base transaction", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  const wallet = createWalletClient({ chain: base, transport: http(chain.url) });

  beforeAll(async () => {
    await chain.snapshot();
    // Three confirmations, so "waiting for confirmations" lasts until the test mines blocks.
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { CONFIRMATIONS: "3", RATE_LIMIT_TX_LOOKUP_PER_MIN: "1000" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  const lookup = async (hash: string, query = "") => {
    const response = await stack.request(`/api/transactions/${hash}${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Lookup;
  };
  const createInvoice = async () =>
    (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceRequest() })
    ).json()) as {
      slug: string;
      invoice_number: string;
      deposit_address: Address;
    };

  test("a malformed hash is a field-level 400", async () => {
    for (const bad of [
      "0x1234",
      `0x${"g".repeat(64)}`,
      `${"a".repeat(66)}`,
      `0x${"a".repeat(65)}`,
    ]) {
      const response = await stack.request(`/api/transactions/${bad}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as {
        error: { code: string; fields: { path: string }[] };
      };
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.fields.map((f) => f.path)).toEqual(["tx_hash"]);
    }
  });

  test("an unknown hash: not found on Base (another network?)", async () => {
    const answer = await lookup(`0x${"7a".repeat(32)}`);
    expect(answer).toEqual({
      tx_hash: `0x${"7a".repeat(32)}`,
      network: "base",
      state: "not_found",
      transfers: [],
      message: expect.stringContaining("another network"),
    });
  });

  test("another token, and plain ETH, to an invoice's address: not USDC", async () => {
    const invoice = await createInvoice();
    const token = await deployOtherToken(chain);
    const fake = await sendTokenTransfer(chain, {
      from: devAccount(0),
      token,
      to: invoice.deposit_address,
      value: 150_125_000n,
    });
    expect((await lookup(fake)).state).toBe("not_usdc");
    const eth = await wallet.sendTransaction({
      account: devAccount(1),
      to: invoice.deposit_address,
      value: parseEther("0.01"),
    });
    await chain.client.waitForTransactionReceipt({ hash: eth, pollingInterval: 50 });
    expect((await lookup(eth)).state).toBe("not_usdc");
  });

  test("USDC to someone else's address: not ours", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const { transactionHash } = await chain.payUsdc(devAccount(2), stranger, 1_000_000n);
    const answer = await lookup(transactionHash);
    expect([answer.state, answer.transfers]).toEqual(["not_ours", []]);
  });

  test("sent but not mined yet: pending", async () => {
    const invoice = await createInvoice();
    await chain.client.setAutomine(false);
    try {
      const hash = await sendTokenTransfer(chain, {
        from: devAccount(5),
        token: USDC_ADDRESS,
        to: invoice.deposit_address,
        value: 1_000_000n,
        gas: 100_000n,
        wait: false,
      });
      expect((await lookup(hash)).state).toBe("pending");
      await chain.client.mine({ blocks: 1 });
      await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      expect((await lookup(hash)).state).not.toBe("pending");
    } finally {
      await chain.client.setAutomine(true);
    }
  });

  test("a reverted transfer: failed, nothing moved", async () => {
    const poor = privateKeyToAccount(generatePrivateKey());
    await chain.client.setBalance({ address: poor.address, value: parseEther("1") });
    const invoice = await createInvoice();
    // Gas given, so the wallet sends what estimation would refuse: a transfer of USDC it lacks.
    const hash = await sendTokenTransfer(chain, {
      from: poor,
      token: USDC_ADDRESS,
      to: invoice.deposit_address,
      value: 1_000_000n,
      gas: 100_000n,
      wait: false,
    });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe("reverted");
    expect((await lookup(hash)).state).toBe("failed");
  });

  test("a payment to an invoice: 1 of 3 confirmations, then counted; the invoice named by number only", async () => {
    const invoice = await createInvoice();
    const { transactionHash } = await chain.payUsdc(
      devAccount(3),
      invoice.deposit_address,
      150_125_000n,
    );
    const waiting = await lookup(transactionHash);
    expect(waiting.state).toBe("confirming");
    expect(waiting.transfers).toEqual([
      {
        amount: "150.125",
        to_kind: "invoice",
        invoice_number: invoice.invoice_number,
        confirmations: 1,
        required_confirmations: 3,
        counted: false,
      },
    ]);
    // The page's own slug: the transfer says it paid this invoice.
    expect((await lookup(transactionHash, `?slug=${invoice.slug}`)).transfers[0]?.to_this).toBe(
      true,
    );
    expect((await lookup(transactionHash, "?slug=someoneelse1")).transfers[0]?.to_this).toBe(false);

    await chain.client.mine({ blocks: 2 });
    await expect
      .poll(async () => (await lookup(transactionHash)).state, { timeout: EVENT_MS, interval: 200 })
      .toBe("counted");
    const counted = await lookup(transactionHash);
    // 3 or more: the sweep that follows the payment mines blocks of its own.
    expect(counted.transfers[0]).toEqual(
      expect.objectContaining({ required_confirmations: 3, counted: true }),
    );
    expect(counted.transfers[0]?.confirmations).toBeGreaterThanOrEqual(3);
    expect(counted.message).toContain("counted");
    const status = (await (await stack.request(`/api/payments/status/${invoice.slug}`)).json()) as {
      status: string;
      tx_hash: string;
    };
    expect(status).toEqual(expect.objectContaining({ status: "paid", tx_hash: transactionHash }));
  });

  test("a payment to a link is confirmed without naming the link", async () => {
    const link = (await (
      await stack.request("/api/links", {
        method: "POST",
        json: {
          merchant_email: "shop@example.com",
          amount: "5.00",
          description: "Order 12",
          wallet_type: "managed",
        },
      })
    ).json()) as { slug: string; deposit_address: Address };
    const { transactionHash } = await chain.payUsdc(
      devAccount(4),
      link.deposit_address,
      5_000_000n,
    );
    await chain.client.mine({ blocks: 2 });
    await expect
      .poll(async () => (await lookup(transactionHash)).state, { timeout: EVENT_MS, interval: 200 })
      .toBe("counted");
    const answer = await lookup(transactionHash);
    expect(answer.transfers).toEqual([
      {
        amount: "5.00",
        to_kind: "link",
        confirmations: expect.any(Number),
        required_confirmations: 3,
        counted: true,
      },
    ]);
    expect(JSON.stringify(answer)).not.toContain(link.slug);
  });
});

describe("transaction lookups are limited per client IP, and a dead RPC is no 500", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // No chain at all: port 9 (discard) refuses every connection.
    stack = await startStack({
      rpcUrl: "http://127.0.0.1:9",
      env: { RATE_LIMIT_TX_LOOKUP_PER_MIN: "3" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("the chain unreachable: 'can't check right now'; the fourth lookup in a minute: 429, the page's box included", async () => {
    const hash: Hash = `0x${"3c".repeat(32)}`;
    for (let i = 0; i < 3; i++) {
      const response = await stack.request(`/api/transactions/${hash}`, {
        // Not behind a trusted proxy: a forged X-Forwarded-For buys no new budget.
        headers: { "X-Forwarded-For": `198.51.100.${i}` },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Lookup).state).toBe("unavailable");
    }
    const refused = await stack.request(`/api/transactions/${hash}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // The box on the pages draws on the same budget.
    const invoice = (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceRequest() })
    ).json()) as { slug: string };
    const page = await stack.request(`/i/${invoice.slug}?tx=${hash}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Too many checks");
  });
});
