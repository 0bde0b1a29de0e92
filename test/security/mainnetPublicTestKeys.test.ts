import { toHex } from "viem";
import { generatePrivateKey, mnemonicToAccount } from "viem/accounts";
import { describe, expect, test } from "vitest";
import { DEV_MNEMONIC } from "../../domain/constants.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import { requireProductionKeys } from "../../keys/productionKeys.ts";

/** anvil's default account `index`'s private key, as RELAYER_PRIVATE_KEY takes it. */
const anvilKey = (index: number) =>
  toHex(
    mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).getHdKey().privateKey as Uint8Array,
  );

const mainnet = {
  localChain: false,
  DEPOSIT_MNEMONIC: newMnemonic(),
  SWEEP: "on" as const,
  RELAYER_PRIVATE_KEY: generatePrivateKey(),
};

/**
 * Keys everyone has: anvil's (and Hardhat's) `test test … junk` mnemonic and its accounts' keys
 * are published, and bots sweep whatever reaches their addresses on Base within seconds. A
 * production deployment copied from a development one must refuse to start with them.
 */
describe("mainnet mode with a public test key", () => {
  test("accepts keys of its own", () => {
    expect(() => requireProductionKeys(mainnet)).not.toThrow();
  });

  test.each([
    ["anvil's and Hardhat's", DEV_MNEMONIC],
    ["anvil's, spaced and in capitals", `  ${DEV_MNEMONIC.toUpperCase().replaceAll(" ", "  ")}\n`],
    [
      "ganache's (-d)",
      "myth like bonus scare over problem client lizard pioneer submit female collect",
    ],
    [
      "truffle develop's",
      "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat",
    ],
    ["BIP-39's first test vector", `${"abandon ".repeat(11)}about`],
  ])("refuses %s mnemonic as DEPOSIT_MNEMONIC", (_name, mnemonic) => {
    expect(() => requireProductionKeys({ ...mainnet, DEPOSIT_MNEMONIC: mnemonic })).toThrow(
      /DEPOSIT_MNEMONIC is a published test mnemonic/,
    );
  });

  test.each([0, 1, 5, 9])("refuses anvil's account %i as RELAYER_PRIVATE_KEY", (index) => {
    expect(() =>
      requireProductionKeys({ ...mainnet, RELAYER_PRIVATE_KEY: anvilKey(index) }),
    ).toThrow(/RELAYER_PRIVATE_KEY is a published test key/);
    // Whatever the case of its hex digits.
    expect(() =>
      requireProductionKeys({
        ...mainnet,
        RELAYER_PRIVATE_KEY: anvilKey(index).toUpperCase().replace("0X", "0x"),
      }),
    ).toThrow(/RELAYER_PRIVATE_KEY/);
  });

  test("refuses anvil's relayer even with sweeping off", () => {
    expect(() =>
      requireProductionKeys({ ...mainnet, SWEEP: "off", RELAYER_PRIVATE_KEY: anvilKey(9) }),
    ).toThrow(/RELAYER_PRIVATE_KEY/);
  });

  test("accepts them on the local chain, which is what they are for", () => {
    expect(() =>
      requireProductionKeys({
        ...mainnet,
        localChain: true,
        DEPOSIT_MNEMONIC: DEV_MNEMONIC,
        RELAYER_PRIVATE_KEY: anvilKey(9),
      }),
    ).not.toThrow();
  });
});
