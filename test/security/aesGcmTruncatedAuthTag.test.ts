import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { openSecret, parseKeyring, sealSecret } from "../../domain/secretBox.ts";

const keyring = parseKeyring(randomBytes(32).toString("hex"));

/** The sealed value with its ciphertext-and-tag part cut to its first `length` bytes. */
function cutTo(sealed: string, length: number): string {
  const parts = sealed.split(":");
  parts[4] = Buffer.from(parts[4] as string, "base64")
    .subarray(0, length)
    .toString("base64");
  return parts.join(":");
}

/**
 * GCM verifies a tag as short as 4 bytes when told nothing else: one written into the database
 * (a sealed empty secret) would be forged in 2^32 tries, and the worker would then sign with a
 * key the forger knows. Only full 16-byte tags are accepted.
 */
describe("a sealed secret whose auth tag is truncated", () => {
  test("is refused when cut to 4 bytes", () => {
    const sealed = sealSecret("", keyring);
    expect(openSecret(sealed, keyring)).toBe("");
    expect(() => openSecret(cutTo(sealed, 4), keyring)).toThrow();
  });

  test.each([0, 1, 8, 12, 15])("is refused when cut to %i bytes", (length) => {
    expect(() => openSecret(cutTo(sealSecret("", keyring), length), keyring)).toThrow();
  });
});
