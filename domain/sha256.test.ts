import { describe, expect, test } from "vitest";
import { sha256Hex } from "./sha256.ts";

describe("sha256Hex", () => {
  // FIPS 180-2, appendix B.1 and B.2.
  test("matches the published vectors", () => {
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  test("hashes bytes and their UTF-8 string alike", () => {
    expect(sha256Hex(new TextEncoder().encode("Remit ✓"))).toBe(sha256Hex("Remit ✓"));
  });
});
