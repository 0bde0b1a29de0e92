import { describe, expect, test } from "vitest";
import {
  API_KEY_PATTERN,
  CLAIM_TOKEN_PATTERN,
  hashSecretToken,
  isWellFormedApiKey,
  newApiKey,
  newClaimToken,
} from "./apiKeys.ts";

describe("newApiKey", () => {
  test("a recognisable prefix per scope, 49 base58 characters, never the same twice", () => {
    const keys = Array.from({ length: 500 }, () => newApiKey("write"));
    for (const key of keys) {
      expect(key).toMatch(/^remit_sk_[1-9A-HJ-NP-Za-km-z]{49}$/);
      expect(key).toMatch(API_KEY_PATTERN);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
    expect(newApiKey("read")).toMatch(/^remit_rk_/);
  });

  test("a changed character fails the checksum; other shapes are refused", () => {
    const key = newApiKey("write");
    const i = 20;
    const changed = `${key.slice(0, i)}${key[i] === "a" ? "b" : "a"}${key.slice(i + 1)}`;
    expect(isWellFormedApiKey(changed)).toBe(false);
    for (const text of ["", "remit_sk_", `${key}x`, key.slice(1), key.replace("_sk_", "_xx_")])
      expect(isWellFormedApiKey(text)).toBe(false);
  });
});

describe("hashSecretToken", () => {
  test("is the hex SHA-256 of the token", () => {
    expect(hashSecretToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});

describe("newClaimToken", () => {
  test("43 base58 characters", () => {
    const token = newClaimToken();
    expect(token).toMatch(CLAIM_TOKEN_PATTERN);
    expect(newClaimToken()).not.toBe(token);
  });
});
