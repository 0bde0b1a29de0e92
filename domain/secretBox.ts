import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** The key webhook secrets are sealed under, and former keys still accepted for opening. */
export type Keyring = { current: Buffer; previous: readonly Buffer[] };

const PREFIX = "enc:v1:";
// GCM verifies a tag as short as 4 bytes unless told its length: a short tag is forgeable.
const TAG_BYTES = 16;
// Binds a ciphertext to its purpose: a sealed webhook secret cannot be replayed as anything else.
const AAD = Buffer.from("remit webhook_secret v1");

/** A key written as 64 hex digits or as base64 (the forms WEBHOOK_SECRET_KEY accepts). */
export function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new RangeError("a secret key must be 32 bytes");
  return key;
}

/** WEBHOOK_SECRET_KEY and WEBHOOK_SECRET_KEY_PREVIOUS (comma-separated) as a keyring. */
export function parseKeyring(current: string, previous = ""): Keyring {
  return {
    current: decodeKey(current),
    previous: previous
      .split(",")
      .filter((key) => key.trim() !== "")
      .map(decodeKey),
  };
}

/**
 * A short public fingerprint of a key, stored with each ciphertext: it names the key to open
 * it with (so rotation knows what to re-seal) and reveals nothing about the key.
 */
export const keyId = (key: Buffer): string =>
  createHash("sha256").update("remit key id\0").update(key).digest("hex").slice(0, 8);

/** True when `stored` was sealed under the keyring's current key. */
export const isSealedUnderCurrent = (stored: string, keyring: Keyring): boolean =>
  stored.startsWith(`${PREFIX}${keyId(keyring.current)}:`);

/**
 * Seals a secret with AES-256-GCM under the current key, with a fresh 96-bit nonce:
 * `enc:v1:<key id>:<nonce b64>:<ciphertext and tag b64>`.
 *
 * @example
 * openSecret(sealSecret("whsec_…", keyring), keyring); // "whsec_…"
 */
export function sealSecret(plaintext: string, keyring: Keyring): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyring.current, nonce).setAAD(AAD);
  const sealed = Buffer.concat([
    cipher.update(plaintext, "utf8"),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return `${PREFIX}${keyId(keyring.current)}:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

/** Opens what sealSecret wrote; throws when no key of the ring fits or the text was altered. */
export function openSecret(stored: string, keyring: Keyring): string {
  const [id, nonce, sealed] = stored.startsWith(PREFIX)
    ? stored.slice(PREFIX.length).split(":")
    : [];
  if (!id || !nonce || !sealed) throw new Error("not a sealed secret (enc:v1:…)");
  const key = [keyring.current, ...keyring.previous].find((candidate) => keyId(candidate) === id);
  if (!key)
    throw new Error(
      `sealed under key ${id}, which is neither WEBHOOK_SECRET_KEY nor a previous key`,
    );
  const bytes = Buffer.from(sealed, "base64");
  if (bytes.length < TAG_BYTES)
    throw new Error(`sealed secret shorter than its ${TAG_BYTES}-byte tag`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"), {
    authTagLength: TAG_BYTES,
  }).setAAD(AAD);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]).toString("utf8");
}
