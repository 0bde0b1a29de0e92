import { createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import { mod } from "@noble/curves/abstract/modular";
import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { type Address, bytesToHex, hexToBigInt, numberToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import {
  deriveAddress,
  extendedPublicKey,
  MANAGED_WALLET_ACCOUNT,
  managedWalletAccount,
  newMnemonic,
} from "../../keys/hdWallet.ts";
import { MANAGED_WALLET_POOL_SIZE } from "../../worker/managedWalletPool.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The attack: managed wallets were derived non-hardened (m/44'/60'/1'/0/<i>) and the API, the
 * internet-facing process, held their parent's extended public key. An extended public key and
 * the private key of any one of its non-hardened children give the parent's private key, hence
 * every sibling: one managed wallet's key, exported for its merchant, plus a compromise of the
 * API (or its environment, or a log of it) took every merchant's managed wallet.
 *
 * Now managed wallets are hardened (m/44'/60'/2'/0/<i>'), derived by the worker alone into a
 * pool the API takes from; the API's environment holds nothing that derives them.
 */

/** BIP-32's private parent key from a public parent and a non-hardened child's private key. */
function parentKeyFrom(xpub: string, childPrivateKey: Uint8Array, index: number): HDKey {
  const parent = HDKey.fromExtendedKey(xpub);
  const data = Buffer.concat([
    parent.publicKey as Uint8Array,
    Buffer.from(numberToHex(index, { size: 4 }).slice(2), "hex"),
  ]);
  const tweak = createHmac("sha512", parent.chainCode as Uint8Array)
    .update(data)
    .digest()
    .subarray(0, 32);
  const key = mod(
    hexToBigInt(bytesToHex(childPrivateKey)) - hexToBigInt(bytesToHex(tweak)),
    secp256k1.CURVE.n,
  );
  return new HDKey({
    privateKey: Buffer.from(numberToHex(key, { size: 32 }).slice(2), "hex"),
    chainCode: parent.chainCode as Uint8Array,
  });
}
const addressOf = (key: HDKey) =>
  privateKeyToAccount(bytesToHex(key.privateKey as Uint8Array)).address;

describe("one managed wallet's key and an extended public key", () => {
  const mnemonic = newMnemonic();
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));

  test("revealed every wallet of the old, non-hardened derivation", () => {
    const xpub = extendedPublicKey(mnemonic, MANAGED_WALLET_ACCOUNT);
    const leaked = root.derive(`m/44'/60'/1'/0/3`).privateKey as Uint8Array;
    const parent = parentKeyFrom(xpub, leaked, 3);
    for (const index of [0, 7, 1234])
      expect(addressOf(parent.deriveChild(index))).toBe(deriveAddress(xpub, index));
  });

  test("reveal nothing of the hardened ones, even with their parent's extended public key", () => {
    const xpub = root.derive(`m/44'/60'/2'/0`).publicExtendedKey;
    const leaked = managedWalletAccount(mnemonic, 3, true).getHdKey().privateKey as Uint8Array;
    const guess = parentKeyFrom(xpub, leaked, 3);
    for (const index of [0, 7, 1234]) {
      const sibling = managedWalletAccount(mnemonic, index, true).address;
      expect(addressOf(guess.deriveChild(index + 0x80000000))).not.toBe(sibling);
      expect(addressOf(guess.deriveChild(index))).not.toBe(sibling);
    }
  });
});

describe("managed wallets with an API that cannot derive them", () => {
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

  const create = async (overrides: Record<string, unknown> = {}) => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "40.00" }],
        ...overrides,
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { invoice_id: string; deposit_address: Address };
  };
  const merchant = (email: string) =>
    stack.db
      .selectFrom("app.merchants")
      .select(["managed_wallet_index", "managed_wallet_address", "managed_wallet_hardened"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

  test("the API's environment holds no key material that derives a managed wallet", async () => {
    const email = `hardened-${Date.now()}@example.com`;
    await create({ merchant_email: email });
    const wallet = await merchant(email);
    expect(wallet.managed_wallet_hardened).toBe(true);
    const environ = await readFile(`/proc/${stack.api.process.pid}/environ`, "utf8");
    const values = environ
      .split("\0")
      .filter((entry) => entry.includes("="))
      .map((entry) => entry.slice(entry.indexOf("=") + 1));
    for (const value of values) {
      // No seed, no extended private key.
      expect(validateMnemonic(value.trim().toLowerCase().replace(/\s+/g, " "), wordlist)).toBe(
        false,
      );
      expect(value).not.toMatch(/[xt]prv[1-9A-HJ-NP-Za-km-z]{100,}/);
      // 32 bytes (the webhook-secret sealing key is one): not the wallet's private key.
      const hex = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(value)?.[1];
      if (hex)
        expect(privateKeyToAccount(`0x${hex}`).address).not.toBe(wallet.managed_wallet_address);
      // An extended public key (the deposit addresses') derives no managed wallet.
      for (const xpub of value.match(/xpub[1-9A-HJ-NP-Za-km-z]{100,}/g) ?? []) {
        const children = Array.from({ length: 200 }, (_, i) => deriveAddress(xpub, i));
        expect(children).not.toContain(wallet.managed_wallet_address);
      }
    }
  });

  test("a managed invoice is paid and swept to the merchant's hardened wallet; the worker refills the pool", async () => {
    const email = `managed-${Date.now()}@example.com`;
    const invoice = await create({ merchant_email: email });
    const wallet = await merchant(email);
    // The worker's hardened derivation, at the index the pool recorded: the operator's key.
    const account = managedWalletAccount(
      stack.mnemonic,
      wallet.managed_wallet_index as number,
      true,
    );
    expect(wallet.managed_wallet_address).toBe(account.address);
    const details = (await (await stack.request(`/api/invoices/${invoice.invoice_id}`)).json()) as {
      wallet_address: string;
    };
    expect(details.wallet_address).toBe(account.address);

    await chain.payUsdc(devAccount(1), invoice.deposit_address, 40_000_000n);
    await waitFor(
      "the sweep to the managed wallet",
      async () => (await chain.usdcBalance(account.address)) === 40_000_000n,
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    const status = (await (
      await stack.request(`/api/invoices/${invoice.invoice_id}/status`)
    ).json()) as { status: string };
    expect(status.status).toBe("paid");

    // The API took from the pool; only the worker can put wallets back.
    await waitFor(
      "the worker to top the pool up",
      async () => {
        const { count } = await stack.db
          .selectFrom("app.managed_wallet_pool")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .executeTakeFirstOrThrow();
        return Number(count) === MANAGED_WALLET_POOL_SIZE;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
  });

  test("a merchant's wallet made before (non-hardened) is kept", async () => {
    const email = `legacy-${Date.now()}@example.com`;
    // As the API made it before: index from the sequence, derived under account 1's xpub.
    const legacy = deriveAddress(
      extendedPublicKey(stack.mnemonic, MANAGED_WALLET_ACCOUNT),
      900_001,
    );
    await stack.db
      .insertInto("app.merchants")
      .values({ email, managed_wallet_index: 900_001, managed_wallet_address: legacy })
      .execute();
    const invoice = await create({ merchant_email: email });
    const details = (await (await stack.request(`/api/invoices/${invoice.invoice_id}`)).json()) as {
      wallet_address: string;
    };
    expect(details.wallet_address).toBe(legacy);
    expect(await merchant(email)).toEqual({
      managed_wallet_index: 900_001,
      managed_wallet_address: legacy,
      managed_wallet_hardened: false,
    });
    expect(managedWalletAccount(stack.mnemonic, 900_001, false).address).toBe(legacy);
  });
});
