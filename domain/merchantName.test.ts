import { describe, expect, test } from "vitest";
import { merchantNameKey } from "./merchantName.ts";

describe("merchantNameKey", () => {
  test("spacing, case, punctuation and full-width forms do not make another name", () => {
    const key = merchantNameKey("Acme Corp");
    for (const variant of ["ACME  corp.", "acme-corp", "Ａｃｍｅ Ｃｏｒｐ", " Acme\tCorp! "])
      expect(merchantNameKey(variant)).toBe(key);
    expect(merchantNameKey("Acme Corporation")).not.toBe(key);
    expect(merchantNameKey("Café Zoë")).toBe("cafézoë");
  });
});
