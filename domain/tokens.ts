import { randomBytes } from "node:crypto";

// Bitcoin's base58 alphabet: no 0/O or I/l to misread when a slug is typed from paper.
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * A short, URL-safe, unguessable identifier: 12 characters from a 58-letter alphabet
 * (~70 bits), drawn without modulo bias.
 */
export function newSlug(length = 12): string {
  let slug = "";
  while (slug.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 232 = 4 × 58: bytes at or above it would favour the first letters, so they are skipped.
      if (byte < 232 && slug.length < length) slug += ALPHABET[byte % 58];
    }
  }
  return slug;
}

/** What newSlug makes (with room for other lengths): anything else cannot name a link or invoice. */
export const SLUG_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{1,32}$/;

/** A UUID as Postgres writes one (any version): anything else cannot be a row's id. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A webhook signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;
