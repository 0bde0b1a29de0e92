import { describe, expect, test } from "vitest";
import { DEV_MNEMONIC } from "../domain/constants.ts";
import {
  DEPOSIT_ACCOUNT,
  deriveAccount,
  deriveAddress,
  extendedPublicKey,
  isValidMnemonic,
  MANAGED_WALLET_ACCOUNT,
  newMnemonic,
} from "./hdWallet.ts";

describe("key derivation", () => {
  test("addresses derived from the public key match the private keys' accounts", () => {
    for (const account of [DEPOSIT_ACCOUNT, MANAGED_WALLET_ACCOUNT]) {
      const xpub = extendedPublicKey(DEV_MNEMONIC, account);
      expect(xpub).toMatch(/^xpub/);
      for (const index of [0, 1, 7, 1000]) {
        expect(deriveAddress(xpub, index)).toBe(
          deriveAccount(DEV_MNEMONIC, account, index).address,
        );
      }
    }
  });

  test("matches the well-known first address of the dev mnemonic", () => {
    expect(deriveAddress(extendedPublicKey(DEV_MNEMONIC, 0), 0)).toBe(
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    );
  });

  test("deposit addresses and managed wallets never coincide", () => {
    const deposits = new Set(
      Array.from({ length: 50 }, (_, i) =>
        deriveAddress(extendedPublicKey(DEV_MNEMONIC, DEPOSIT_ACCOUNT), i),
      ),
    );
    const managed = Array.from({ length: 50 }, (_, i) =>
      deriveAddress(extendedPublicKey(DEV_MNEMONIC, MANAGED_WALLET_ACCOUNT), i),
    );
    expect(deposits.size).toBe(50);
    expect(managed.some((address) => deposits.has(address))).toBe(false);
  });

  test("generates valid 24-word mnemonics", () => {
    const mnemonic = newMnemonic();
    expect(mnemonic.split(" ")).toHaveLength(24);
    expect(isValidMnemonic(mnemonic)).toBe(true);
    expect(isValidMnemonic("test test test")).toBe(false);
  });
});
