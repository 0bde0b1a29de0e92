import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { type Address, getAddress } from "viem";
import { hdKeyToAccount, privateKeyToAccount } from "viem/accounts";
import { DEV_ACCOUNT_COUNT, DEV_MNEMONIC } from "../domain/constants.ts";

/**
 * Mnemonics published with development tools and in BIP-39's test vectors: everyone holds their
 * keys, and bots sweep whatever reaches their addresses on a real chain within seconds.
 */
const PUBLIC_TEST_MNEMONICS = [
  DEV_MNEMONIC, // anvil's and Hardhat's
  "myth like bonus scare over problem client lizard pioneer submit female collect", // ganache -d
  "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat", // truffle develop
  `${"abandon ".repeat(11)}about`,
  `${"abandon ".repeat(23)}art`,
  "legal winner thank year wave sausage worth useful legal winner thank yellow",
  `${"zoo ".repeat(11)}wrong`,
  `${"zoo ".repeat(23)}vote`,
];

/** A mnemonic's words, whatever the spacing and case it was written with. */
const words = (mnemonic: string) => mnemonic.normalize("NFKD").toLowerCase().trim().split(/\s+/);

/** Whether `mnemonic` is one of PUBLIC_TEST_MNEMONICS (spacing and case aside). */
export const isPublicTestMnemonic = (mnemonic: string): boolean =>
  PUBLIC_TEST_MNEMONICS.some((known) => words(known).join(" ") === words(mnemonic).join(" "));

let publicAccounts: Set<Address> | undefined;

/**
 * Whether `privateKey` is the key of one of the default accounts of a public test mnemonic:
 * the first DEV_ACCOUNT_COUNT of m/44'/60'/0'/0, anvil's ten funded accounts among them.
 * Derived, not listed, so the list cannot drift from the mnemonics. Compared by address, so
 * the hex digits' case does not matter.
 */
export function isPublicTestKey(privateKey: `0x${string}`): boolean {
  publicAccounts ??= new Set(
    PUBLIC_TEST_MNEMONICS.flatMap((mnemonic) => {
      const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
      return Array.from(
        { length: DEV_ACCOUNT_COUNT },
        (_, addressIndex) => hdKeyToAccount(root, { addressIndex }).address,
      );
    }),
  );
  return publicAccounts.has(getAddress(privateKeyToAccount(privateKey).address));
}
