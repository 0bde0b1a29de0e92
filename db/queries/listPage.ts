import { type RawBuilder, sql } from "kysely";
import { encodeListCursor, type ListKey, type ListKind } from "../../domain/listCursor.ts";
import { COUNTED_REFUND_STATUS } from "../../domain/moneyRules.ts";

/** How much of a list to read: `limit` rows after the row at `after` (none: from the newest). */
export type ListPage = { limit: number; after?: ListKey | null };

/** One page of a list: its rows, and the cursor of the next page (null: this is the last). */
export type ListResult<Row> = { rows: Row[]; nextCursor: string | null };

/**
 * A timestamptz column as the list key's moment: ISO 8601 UTC with microseconds, exactly as
 * Postgres holds it (a JS Date would round to milliseconds, and rows inside one millisecond
 * would then repeat or vanish across pages).
 */
export function listMoment(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * `(moment, id) < after`, for a list ordered by both descending: the rows strictly after the
 * previous page's last one. A row comparison, which Postgres walks as one index range.
 */
export function beforeKey(
  momentColumn: string,
  idColumn: string,
  after: ListKey,
  idType: "uuid" | "text",
): RawBuilder<boolean> {
  const id = idType === "uuid" ? sql`${after.id}::uuid` : sql`${after.id}::text`;
  return sql<boolean>`(${sql.ref(momentColumn)}, ${sql.ref(idColumn)}) < (${after.at}::timestamptz, ${id})`;
}

/** `(moment, id) > after`: the same for a walk oldest first (the exports). */
export function afterKey(
  momentColumn: string,
  idColumn: string,
  after: ListKey,
  idType: "uuid" | "text",
): RawBuilder<boolean> {
  const id = idType === "uuid" ? sql`${after.id}::uuid` : sql`${after.id}::text`;
  return sql<boolean>`(${sql.ref(momentColumn)}, ${sql.ref(idColumn)}) > (${after.at}::timestamptz, ${id})`;
}

/**
 * The page from `limit + 1` rows read: the extra row only says whether a next page exists, so a
 * list never ends on an empty page.
 */
export function toPage<Row extends { list_at: string }>(
  kind: ListKind,
  rows: Row[],
  limit: number,
  idOf: (row: Row) => string,
): ListResult<Row> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor:
      rows.length > limit && last
        ? encodeListCursor(kind, { at: last.list_at, id: idOf(last) })
        : null,
  };
}

/** `%term%` for ILIKE, its own `%`, `_` and `\` taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * What the confirmed refunds of the invoice or link in `idColumn` paid back (0 without any), as
 * a correlated subquery over the refunds_invoice / refunds_link index. Confirmed only: the rule
 * of domain/moneyRules.ts refundedAmount.
 */
export function confirmedRefundsOf(
  owner: "invoice_id" | "link_id",
  idColumn: string,
): RawBuilder<bigint> {
  return sql<bigint>`(select coalesce(sum(r.amount), 0) from app.refunds r where ${sql.ref(`r.${owner}`)} = ${sql.ref(idColumn)} and r.status = ${COUNTED_REFUND_STATUS})::bigint`;
}
