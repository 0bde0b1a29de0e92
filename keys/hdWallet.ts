import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { generateMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { type Address, getAddress, keccak256 } from "viem";
import type { HDAccount } from "viem/accounts";
import { hdAccountOf, hdRootOf } from "../internal/hdAccount.ts";

/**
 * Remit's keys all come from one BIP-39 seed, along BIP-44 Ethereum paths:
 * - deposit addresses (one per invoice or link): m/44'/60'/0'/0/<index>
 * - merchants' managed wallets:                 m/44'/60'/2'/0/<index>' (hardened)
 * - managed wallets made before they were hardened (kept, never made again):
 *                                               m/44'/60'/1'/0/<index>
 * Indexes come from database sequences. The API holds only the deposit addresses' extended
 * *public* key, enough to derive them but never to sign. Managed wallets are derived hardened,
 * by the worker alone (into a pool the API takes from): an extended public key together with
 * one of its non-hardened children's private keys yields the parent's private key, hence every
 * sibling, and a managed wallet's key is the one key that may leave the service.
 */
export const DEPOSIT_ACCOUNT = 0;
/** The managed wallets' former, non-hardened account (m/44'/60'/1'/0/<index>). */
export const MANAGED_WALLET_ACCOUNT = 1;
/**
 * The hardened managed wallets' account. A new one: an attacker who ever held account 1's
 * extended public key and one of its keys has account 1's private key, whose hardened children
 * would be theirs too.
 */
export const HARDENED_MANAGED_WALLET_ACCOUNT = 2;
const HARDENED = 0x80000000;

export const isValidMnemonic = (mnemonic: string): boolean =>
  validateMnemonic(mnemonic.trim(), wordlist);

export const newMnemonic = (): string => generateMnemonic(wordlist, 256);

/** An address is the last 20 bytes of keccak256 of the uncompressed key without its 0x04. */
const addressOfPublicKey = (compressed: Uint8Array): Address => {
  const uncompressed = secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
  return getAddress(`0x${keccak256(uncompressed.slice(1)).slice(-40)}`);
};

/** The extended public key of m/44'/60'/<account>'/0, from which addresses are derived. */
export function extendedPublicKey(mnemonic: string, account: number): string {
  return hdRootOf(mnemonic).derive(`m/44'/60'/${account}'/0`).publicExtendedKey;
}

/**
 * The address at `index` under an extended public key (non-hardened child derivation).
 *
 * @example deriveAddress(extendedPublicKey(mnemonic, DEPOSIT_ACCOUNT), 0)
 */
export function deriveAddress(xpub: string, index: number): Address {
  const compressed = HDKey.fromExtendedKey(xpub).deriveChild(index).publicKey;
  if (!compressed) throw new Error("derivation produced no public key");
  return addressOfPublicKey(compressed);
}

/** The signing account at `index` (needs the seed; for sweeps, never in the API). */
export function deriveAccount(mnemonic: string, account: number, index: number): HDAccount {
  return hdAccountOf(mnemonic.trim(), { accountIndex: account, addressIndex: index });
}

/** The derivation path of a managed wallet: hardened, or one made before (non-hardened). */
export function managedWalletPath(index: number, hardened: boolean): string {
  return hardened
    ? `m/44'/60'/${HARDENED_MANAGED_WALLET_ACCOUNT}'/0/${index}'`
    : `m/44'/60'/${MANAGED_WALLET_ACCOUNT}'/0/${index}`;
}

/**
 * A function deriving managed wallets' addresses (hardened, so it needs the seed: the worker's),
 * the seed stretched once for all of them.
 *
 * @example managedWalletDeriver(mnemonic)(7) // the address at m/44'/60'/2'/0/7'
 */
export function managedWalletDeriver(mnemonic: string): (index: number) => Address {
  const parent = hdRootOf(mnemonic).derive(`m/44'/60'/${HARDENED_MANAGED_WALLET_ACCOUNT}'/0`);
  return (index) => {
    const key = parent.deriveChild(index + HARDENED).publicKey;
    if (!key) throw new Error("derivation produced no public key");
    return addressOfPublicKey(key);
  };
}

/** A managed wallet's signing account (the operator's, to move its funds; never handed out). */
export function managedWalletAccount(mnemonic: string, index: number, hardened: boolean) {
  return hdAccountOf(mnemonic.trim(), { path: managedWalletPath(index, hardened) as never });
}
