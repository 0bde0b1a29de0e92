import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { type Address, getAddress, keccak256 } from "viem";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";

/**
 * Remit's keys all come from one BIP-39 seed, along BIP-44 Ethereum paths:
 * - deposit addresses (one per invoice or link): m/44'/60'/0'/0/<index>
 * - merchants' managed wallets:                 m/44'/60'/1'/0/<index>
 * Indexes come from database sequences. The API only ever holds the two extended *public*
 * keys, enough to derive addresses; private keys exist only where funds are moved.
 */
export const DEPOSIT_ACCOUNT = 0;
export const MANAGED_WALLET_ACCOUNT = 1;

export const isValidMnemonic = (mnemonic: string): boolean =>
  validateMnemonic(mnemonic.trim(), wordlist);

export const newMnemonic = (): string => generateMnemonic(wordlist, 256);

/** The extended public key of m/44'/60'/<account>'/0, from which addresses are derived. */
export function extendedPublicKey(mnemonic: string, account: number): string {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic.trim()));
  return root.derive(`m/44'/60'/${account}'/0`).publicExtendedKey;
}

/**
 * The address at `index` under an extended public key (non-hardened child derivation).
 *
 * @example deriveAddress(extendedPublicKey(mnemonic, DEPOSIT_ACCOUNT), 0)
 */
export function deriveAddress(xpub: string, index: number): Address {
  const compressed = HDKey.fromExtendedKey(xpub).deriveChild(index).publicKey;
  if (!compressed) throw new Error("derivation produced no public key");
  // An address is the last 20 bytes of keccak256 of the uncompressed key without its 0x04.
  const uncompressed = secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
  return getAddress(`0x${keccak256(uncompressed.slice(1)).slice(-40)}`);
}

/** The signing account at `index` (needs the seed; for sweeps, never in the API). */
export function deriveAccount(mnemonic: string, account: number, index: number): HDAccount {
  return mnemonicToAccount(mnemonic.trim(), { accountIndex: account, addressIndex: index });
}
