import { crc32 } from "node:zlib";
import { sha256Hex } from "./sha256.ts";
import type { ApiKeyScope } from "./statuses.ts";
import { newSlug } from "./tokens.ts";

/**
 * The prefix of each scope's keys: recognisable (secret scanners, a reader of a log or a
 * commit), and saying at a glance what the key may do. `sk`: secret key (write); `rk`:
 * restricted key (read), as Stripe names them.
 */
export const API_KEY_PREFIXES = { write: "remit_sk_", read: "remit_rk_" } as const;

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** 43 base58 characters: 252 bits of randomness. */
const RANDOM_LENGTH = 43;
/** A CRC32 as 6 base58 characters (58^6 > 2^32). */
const CHECKSUM_LENGTH = 6;

/** The key's checksum: lets scanners (and the API, before any lookup) tell a key from noise. */
function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE58[value % 58] + out;
    value = Math.floor(value / 58);
  }
  return out;
}

/** What secret scanners can match: either prefix, 43 random and 6 checksum base58 characters. */
export const API_KEY_PATTERN = /^remit_(sk|rk)_[1-9A-HJ-NP-Za-km-z]{49}$/;

/**
 * A new API key of `scope`: its prefix, 252 random bits and a checksum, e.g.
 * `remit_sk_7Hq…` (58 characters). Shown to its merchant once; only its hash is stored.
 *
 * @example newApiKey("read") // "remit_rk_…"
 */
export function newApiKey(scope: ApiKeyScope): string {
  const body = `${API_KEY_PREFIXES[scope]}${newSlug(RANDOM_LENGTH)}`;
  return `${body}${checksum(body)}`;
}

/**
 * Whether `text` is shaped like a key of ours with a valid checksum: anything else is refused
 * without a database lookup. (A well-formed key still has to be found by its hash.)
 */
export function isWellFormedApiKey(text: string): boolean {
  if (!API_KEY_PATTERN.test(text)) return false;
  const body = text.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === text.slice(-CHECKSUM_LENGTH);
}

/**
 * How a key (or a claim token) is stored: the hex SHA-256 of the whole string. The secrets carry
 * 252 bits of randomness, so a slow password hash would add nothing but latency to every request.
 */
export const hashSecretToken = (token: string): string => sha256Hex(token);

/** A one-time claim link's token: 43 base58 characters (252 bits); stored only hashed. */
export const newClaimToken = (): string => newSlug(RANDOM_LENGTH);

/** What newClaimToken makes: anything else in a claim URL is refused at once. */
export const CLAIM_TOKEN_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{43}$/;

/** What is stored of a key: its hash, and its last four characters to tell keys apart. */
export const apiKeyRecord = (key: string): { keyHash: string; lastFour: string } => ({
  keyHash: hashSecretToken(key),
  lastFour: key.slice(-4),
});
