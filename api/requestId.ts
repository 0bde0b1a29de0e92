import { randomUUID } from "node:crypto";

/** A caller's id we keep: short, and only characters that cannot forge or break a log line. */
// Letters, digits and `. _ : = + / -`: UUIDs, ULIDs, base64, AWS trace ids (`Root=1-…`).
const SANE_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/**
 * The id of a request: the caller's `X-Request-Id` when it is a sane token (so a gateway's or
 * a client's id follows the request into our logs), otherwise a fresh UUID.
 *
 * @example
 * requestIdFrom("req-7f3a") // "req-7f3a"
 * requestIdFrom("<script>") // a new UUID
 */
export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}
