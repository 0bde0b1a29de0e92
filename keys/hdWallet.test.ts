import { describe, expect, test } from "vitest";
import { DEV_MNEMONIC } from "../domain/constants.ts";
import {
  DEPOSIT_ACCOUNT,
  deriveAccount,
  deriveAddress,
  extendedPublicKey,
  isValidMnemonic,
  MANAGED_WALLET_ACCOUNT,
  managedWalletAccount,
  managedWalletDeriver,
  managedWalletPath,
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

  test("managed wallets: hardened, at m/44'/60'/2'/0/<i>', the signing account's address", () => {
    const derive = managedWalletDeriver(DEV_MNEMONIC);
    expect(managedWalletPath(7, true)).toBe("m/44'/60'/2'/0/7'");
    expect(managedWalletPath(7, false)).toBe("m/44'/60'/1'/0/7");
    for (const index of [0, 1, 7, 1000])
      expect(derive(index)).toBe(managedWalletAccount(DEV_MNEMONIC, index, true).address);
    // Those made before stay where they were: under account 1's extended public key.
    expect(managedWalletAccount(DEV_MNEMONIC, 3, false).address).toBe(
      deriveAddress(extendedPublicKey(DEV_MNEMONIC, MANAGED_WALLET_ACCOUNT), 3),
    );
    expect(derive(3)).not.toBe(managedWalletAccount(DEV_MNEMONIC, 3, false).address);
  });

  test("generates valid 24-word mnemonics", () => {
    const mnemonic = newMnemonic();
    expect(mnemonic.split(" ")).toHaveLength(24);
    expect(isValidMnemonic(mnemonic)).toBe(true);
    expect(isValidMnemonic("test test test")).toBe(false);
  });
});
