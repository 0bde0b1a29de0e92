import { sha256Hex } from "./sha256.ts";

/**
 * A stable hash of a request body: the same JSON, whatever its key order or spacing. An
 * idempotent replay must carry the body whose hash was stored with its key.
 *
 * @example requestHash({ a: 1, b: 2 }) === requestHash({ b: 2, a: 1 }) // true
 */
export function requestHash(body: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  return sha256Hex(JSON.stringify(canonical(body)));
}
