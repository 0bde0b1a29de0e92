import { randomUUID } from "node:crypto";
import { type Address, type Hash, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The attack: `GET /api/transactions/{tx_hash}` is public, and every USDC transaction hash on
 * Base is public too. Fed the chain's hashes, a lookup that named merchants (their names,
 * emails, wallets, invoice ids, or a link's slug, which opens a checkout page naming the
 * merchant) would map Remit's deposit addresses to merchants and their sales. Nothing of the
 * merchant, vendor or invoice beyond its number may come back, for a payment, for the sweep to
 * the merchant's own wallet, or through the pages' "Paid but not showing?" box.
 */
describe("the transaction lookup reveals nothing about merchants", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  const relayerPrivateKey = generatePrivateKey();

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({
      address: privateKeyToAccount(relayerPrivateKey).address,
      value: parseEther("1"),
    });
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { RELAYER_PRIVATE_KEY: relayerPrivateKey },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  test("a payment, its sweep to the merchant's wallet, a link's payment: no merchant data, by API or page", async () => {
    const merchantWallet = privateKeyToAccount(generatePrivateKey()).address;
    const secret = randomUUID().slice(0, 8);
    const invoiceBody = invoiceRequest({
      merchant_email: `hidden-${secret}@merchant.example`,
      merchant_name: `Secretive Merchant ${secret}`,
      merchant_address: `77 Hidden Lane ${secret}`,
      vendor_email: `vendor-${secret}@vendor.example`,
      vendor_name: `Private Vendor ${secret}`,
      wallet_type: "byo",
      wallet_address: merchantWallet,
      webhook_url: `https://hooks.example/${secret}`,
      line_items: [{ description: "Work", quantity: 1, unit_price: "20.00" }],
    });
    const invoice = (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceBody })
    ).json()) as {
      invoice_id: string;
      slug: string;
      invoice_number: string;
      deposit_address: Address;
    };
    const link = (await (
      await stack.request("/api/links", {
        method: "POST",
        json: {
          merchant_email: `hidden-${secret}@merchant.example`,
          merchant_name: `Secretive Merchant ${secret}`,
          amount: "7.00",
          description: `Order ${secret}`,
          wallet_type: "managed",
        },
      })
    ).json()) as { slug: string; deposit_address: Address };

    const invoicePayment = await chain.payUsdc(devAccount(1), invoice.deposit_address, 20_000_000n);
    const linkPayment = await chain.payUsdc(devAccount(2), link.deposit_address, 7_000_000n);
    // The sweep of the paid invoice: a USDC transfer from Remit's address to the merchant's own.
    const sweepHash = await waitFor(
      "the invoice swept to the merchant's wallet",
      async () => {
        const details = (await (
          await stack.request(`/api/invoices/${invoice.invoice_id}`)
        ).json()) as {
          sweeps: { tx_hash: string | null; status: string }[];
        };
        return details.sweeps.find((s) => s.status === "confirmed")?.tx_hash ?? undefined;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );

    const secrets = [
      secret,
      invoice.invoice_id,
      invoice.slug,
      link.slug,
      invoice.deposit_address,
      link.deposit_address,
      merchantWallet,
      "hidden-",
      "Secretive",
      "Hidden Lane",
      "Private Vendor",
      "hooks.example",
    ].map((s) => s.toLowerCase());
    const leaks = (text: string) => secrets.filter((s) => text.toLowerCase().includes(s));

    const lookup = async (hash: string, query = "") => {
      const response = await stack.request(`/api/transactions/${hash}${query}`);
      expect(response.status).toBe(200);
      return response.text();
    };
    for (const hash of [invoicePayment.transactionHash, linkPayment.transactionHash]) {
      const body = await waitFor(
        "the payment counted",
        async () => {
          const text = await lookup(hash);
          return JSON.parse(text).state === "counted" ? text : undefined;
        },
        { timeoutMs: EVENT_MS, intervalMs: 200 },
      );
      expect(leaks(body)).toEqual([]);
      // A guessed slug learns nothing either.
      expect(leaks(await lookup(hash, "?slug=guessedslug1"))).toEqual([]);
    }
    const invoiceAnswer = JSON.parse(await lookup(invoicePayment.transactionHash)) as {
      transfers: Record<string, unknown>[];
    };
    expect(invoiceAnswer.transfers[0]).toEqual(
      expect.objectContaining({ to_kind: "invoice", invoice_number: invoice.invoice_number }),
    );

    // The sweep moved USDC to the merchant's own wallet, which is nobody's deposit address.
    const sweep = await lookup(sweepHash as Hash);
    expect(JSON.parse(sweep).state).toBe("not_ours");
    expect(leaks(sweep)).toEqual([]);

    // Through another merchant's page: its own data only.
    const other = (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceRequest() })
    ).json()) as { slug: string };
    for (const hash of [invoicePayment.transactionHash, linkPayment.transactionHash, sweepHash]) {
      const page = await (await stack.request(`/i/${other.slug}?tx=${hash}`)).text();
      expect(page).toContain("paidverdict");
      expect(leaks(page)).toEqual([]);
    }
    // A sweep waits for the relayer: longer than the default on a loaded machine.
  });
});
