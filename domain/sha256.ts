import { createHash } from "node:crypto";

/**
 * Hex SHA-256 of `data` (bytes, or a string as UTF-8): a stored PDF's checksum and ETag, a
 * request body's hash.
 *
 * @example sha256Hex("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}
