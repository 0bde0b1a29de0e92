import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, test } from "vitest";
import { hdAccountOf } from "./hdAccount.ts";

const MNEMONIC = "test test test test test test test test test test test junk";

describe("hdAccountOf", () => {
  test("is viem's mnemonicToAccount: the same keys at every path", () => {
    for (const options of [
      {},
      { addressIndex: 9 },
      { accountIndex: 2, addressIndex: 7 },
      { path: "m/44'/60'/2'/0/5'" as const },
    ]) {
      const ours = hdAccountOf(MNEMONIC, options);
      const viems = mnemonicToAccount(MNEMONIC, options);
      expect(ours.address).toBe(viems.address);
      expect(ours.getHdKey().privateKey).toEqual(viems.getHdKey().privateKey);
    }
  });

  test("reads the mnemonic as BIP-39 does: surrounding spaces do not change it", () => {
    expect(hdAccountOf(`  ${MNEMONIC}\n`).address).toBe(mnemonicToAccount(MNEMONIC).address);
  });
});
