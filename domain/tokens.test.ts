import { describe, expect, test } from "vitest";
import { newSlug, newWebhookSecret } from "./tokens.ts";

describe("newSlug", () => {
  test("is 12 URL-safe base58 characters and does not repeat", () => {
    const slugs = Array.from({ length: 2000 }, () => newSlug());
    for (const slug of slugs) expect(slug).toMatch(/^[1-9A-HJ-NP-Za-km-z]{12}$/);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

describe("newWebhookSecret", () => {
  test("carries 32 random bytes in the Standard Webhooks format", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
