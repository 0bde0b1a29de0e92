import { pbkdf2Sync } from "node:crypto";
import { type HDAccount, HDKey, type HDOptions, hdKeyToAccount } from "viem/accounts";

/**
 * Root keys by mnemonic: the service's seed and the local chain's dev mnemonic, a few at most.
 * The process holds each mnemonic already; its root key is no more secret than it.
 */
const roots = new Map<string, HDKey>();

/**
 * viem's `mnemonicToAccount`, with the BIP-39 seed stretched once per mnemonic by Node's native
 * PBKDF2 (the same 64 bytes). viem stretches it in JavaScript at every call, 2,048 rounds of
 * SHA-512: 50–130 ms of CPU each, and `npm start` derived a dozen dev accounts at load (over
 * half a second of a 2-core start), the worker one account per sweep.
 */
export function hdAccountOf(mnemonic: string, options: HDOptions = {}): HDAccount {
  return hdKeyToAccount(hdRootOf(mnemonic), options);
}

/** The BIP-32 root key of a BIP-39 mnemonic (no passphrase), its seed stretched once. */
export function hdRootOf(mnemonic: string): HDKey {
  const words = mnemonic.trim().normalize("NFKD");
  let root = roots.get(words);
  if (!root) {
    root = HDKey.fromMasterSeed(pbkdf2Sync(words, "mnemonic", 2048, 64, "sha512"));
    roots.set(words, root);
  }
  return root;
}
