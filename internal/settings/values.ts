import { isIP } from "node:net";
import { z } from "zod";

// The kinds of value settings take, shared by internal/settings/*.ts.
export const port = z.coerce.number().int().min(1).max(65_535);
// parseEnv drops empty variables first, so `NAME=` means "not set".
export const optionalUrl = z.url().optional();
export const rateBudget = z.coerce.number().int().min(0).max(1_000_000);
/** 32 bytes written as 64 hex digits or as base64. */
export const secretKey = z
  .string()
  .refine(
    (value) =>
      /^[0-9a-fA-F]{64}$/.test(value) ||
      (/^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, "base64").length === 32),
    "must be 32 bytes: 64 hex digits or 44 characters of base64 (openssl rand -hex 32)",
  );
/** One JSON-RPC URL, or several separated by commas (used in order, with fallback). */
export const rpcUrlList = z
  .string()
  .refine(
    (list) => splitRpcUrls(list).length > 0 && splitRpcUrls(list).every(isHttpUrl),
    "must be an http(s) URL, or several separated by commas",
  )
  .optional();
/**
 * A USDC amount in decimal ("0.10", "1", "0.000001"), as base units. (internal/ sits below
 * domain/, so the conversion is spelled out here rather than borrowed from domain/money.ts.)
 */
export const usdcSetting = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,6})?$/, "must be a USDC amount such as 0.10 (up to 6 decimals)")
  .transform((value) => {
    const [whole = "0", fraction = ""] = value.split(".");
    return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  });
/** A duration: a number of seconds, or a number with s, m, h or d ("90s", "30m", "6h"), in ms. */
export const duration = z
  .string()
  .regex(/^\d{1,9}(s|m|h|d)?$/, "must be a duration such as 6h, 30m, 90s or a number of seconds")
  .transform((value) => {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[value.slice(-1)];
    return unit ? Number(value.slice(0, -1)) * unit : Number(value) * 1_000;
  });
export const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");

/** `"https://a, https://b"` → `["https://a", "https://b"]`. */
export function splitRpcUrls(list: string): string[] {
  return list
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
}

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`. */
export function isAddressOrBlock(entry: string): boolean {
  const [network = "", prefix] = entry.split("/");
  const family = isIP(network);
  if (family === 0) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  );
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
