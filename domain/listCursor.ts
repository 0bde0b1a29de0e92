/**
 * The opaque `cursor` of the lists (GET /api/invoices, /api/links, /api/payments): the sort key
 * of a page's last row, which the next page starts strictly after (keyset pagination, so a page
 * costs one index walk however deep it is, and rows arriving meanwhile shift nothing).
 *
 * A cursor is base64url of `<kind>|<moment>|<id>`. It is opaque to clients, not secret: every
 * list is scoped to the caller's merchant in the query itself, so a forged cursor can only move
 * within the caller's own rows. Decoding is strict (a cursor of another list, a moment that is
 * not a real one, an id of the wrong shape: null, which the API answers with a 400), so nothing
 * a client writes reaches SQL unchecked.
 */

/** Which list a cursor belongs to: one list's cursor is refused by the others. */
export type ListKind = "invoices" | "links" | "payments" | "events" | "schedules" | "deliveries";

/**
 * A row's position in a list: its time to the microsecond (as Postgres stores it, ISO 8601 UTC
 * with six decimals, so no two rows a millisecond apart collapse into one position) and its id.
 */
export type ListKey = { at: string; id: string };

const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A transfer's id as the indexer writes it: `<tx hash>-<log index>`. */
const TRANSFER_ID = /^0x[0-9a-f]{64}-\d{1,9}$/;

const ID_PATTERNS: Record<ListKind, RegExp> = {
  invoices: UUID,
  links: UUID,
  payments: TRANSFER_ID,
  events: UUID,
  schedules: UUID,
  deliveries: UUID,
};

/**
 * The cursor of the row at `key` in list `kind`.
 *
 * @example encodeListCursor("invoices", { at: "2026-11-01T09:30:00.123456Z", id: "5b0e…" })
 */
export function encodeListCursor(kind: ListKind, key: ListKey): string {
  return Buffer.from(`${kind}|${key.at}|${key.id}`, "utf8").toString("base64url");
}

/** The key a cursor of list `kind` carries; null for anything else (malformed, another list's). */
export function decodeListCursor(kind: ListKind, cursor: string): ListKey | null {
  if (cursor.length === 0 || cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (parts.length !== 3) return null;
  const [cursorKind = "", at = "", id = ""] = parts;
  if (cursorKind !== kind || !isRealMoment(at) || !ID_PATTERNS[kind].test(id)) return null;
  return { at, id };
}

/** A well-formed moment that is also a real date and time (no 2026-02-30, no 25:00). */
function isRealMoment(moment: string): boolean {
  if (!MOMENT.test(moment)) return false;
  const parsed = new Date(moment);
  return (
    !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === moment.slice(0, 19)
  );
}
