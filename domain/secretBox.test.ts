import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  decodeKey,
  isSealedUnderCurrent,
  keyId,
  openSecret,
  parseKeyring,
  sealSecret,
} from "./secretBox.ts";
import { newWebhookSecret } from "./tokens.ts";

const hexKey = () => randomBytes(32).toString("hex");

describe("secretBox", () => {
  test("a sealed secret opens to itself and shows nothing of it", () => {
    const keyring = parseKeyring(hexKey());
    const secret = newWebhookSecret();
    const sealed = sealSecret(secret, keyring);
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealed).not.toContain(Buffer.from(secret).toString("base64").slice(0, 20));
    expect(openSecret(sealed, keyring)).toBe(secret);
    // A fresh nonce each time: equal secrets do not give equal ciphertexts.
    expect(sealSecret(secret, keyring)).not.toBe(sealed);
  });

  test("another key cannot open it, and an altered ciphertext is refused", () => {
    const keyring = parseKeyring(hexKey());
    const sealed = sealSecret("whsec_abc", keyring);
    expect(() => openSecret(sealed, parseKeyring(hexKey()))).toThrow(/neither WEBHOOK_SECRET_KEY/);
    const parts = sealed.split(":");
    const bytes = Buffer.from(parts[4] as string, "base64");
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    parts[4] = bytes.toString("base64");
    expect(() => openSecret(parts.join(":"), keyring)).toThrow();
    expect(() => openSecret("whsec_plaintext", keyring)).toThrow(/not a sealed secret/);
  });

  test("after a rotation the previous key still opens old rows, which are not current", () => {
    const [oldKey, newKey] = [hexKey(), hexKey()];
    const sealedBefore = sealSecret("whsec_old", parseKeyring(oldKey));
    const rotated = parseKeyring(newKey, ` ${oldKey} ,`);
    expect(openSecret(sealedBefore, rotated)).toBe("whsec_old");
    expect(isSealedUnderCurrent(sealedBefore, rotated)).toBe(false);
    expect(isSealedUnderCurrent(sealSecret("whsec_new", rotated), rotated)).toBe(true);
  });

  test("keys are read as hex or base64, 32 bytes only; their id is a fingerprint", () => {
    const key = randomBytes(32);
    expect(decodeKey(key.toString("hex"))).toEqual(key);
    expect(decodeKey(key.toString("base64"))).toEqual(key);
    expect(() => decodeKey("abcd")).toThrow(RangeError);
    expect(keyId(key)).toMatch(/^[0-9a-f]{8}$/);
    expect(key.toString("hex")).not.toContain(keyId(key));
  });
});
