import { type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import { encodeListCursor, type ListKey, type ListKind } from "../../domain/listCursor.ts";
import { COUNTED_REFUND_STATUS } from "../../domain/moneyRules.ts";

/**
 * The one keyset stack of every list (GET /api/invoices, /api/links, /api/payments, /api/events,
 * /api/invoice-schedules, an endpoint's deliveries, the dashboard's pages) and of the exports'
 * batches: a list module states its table, its filters and its row, and says by which columns it
 * is ordered (a ListOrder); this module seeks past the cursor's row, orders, reads one row more
 * than the page and makes the next cursor.
 */

/** A list's filter on when its rows were created: at or after `createdFrom`, before `createdBefore`. */
export type CreatedFilter = { createdFrom?: Date; createdBefore?: Date };

/** A list's filter on its rows' amount (USDC base units): at least `amountMin`, at most `amountMax`. */
export type AmountFilter = { amountMin?: bigint; amountMax?: bigint };

/**
 * Narrows a list query to the rows whose `column` is in a range, each bound only when given:
 * at least `min`, and below `before` (a moment's range, half-open) or at most `max` (an
 * amount's). Use with `$call`: `query.$call(inRange("l.amount", { min, max }))`.
 */
export function inRange<C extends string, V>(column: C, range: { min?: V; before?: V; max?: V }) {
  return <QB extends { where(lhs: C, op: ">=" | "<" | "<=", rhs: V): QB }>(query: QB): QB => {
    let narrowed = query;
    if (range.min !== undefined) narrowed = narrowed.where(column, ">=", range.min);
    if (range.before !== undefined) narrowed = narrowed.where(column, "<", range.before);
    if (range.max !== undefined) narrowed = narrowed.where(column, "<=", range.max);
    return narrowed;
  };
}

/** How much of a list to read: `limit` rows after the row at `after` (none: from the newest). */
export type ListPage = { limit: number; after?: ListKey | null };

/** One page of a list: its rows, and the cursor of the next page (null: this is the last). */
export type ListResult<Row> = { rows: Row[]; nextCursor: string | null };

/**
 * The order of a list: by a timestamptz column (the cursor's moment), then by the row's id,
 * which makes the key unique. `kind` names the list its cursors belong to; `idType` is how the
 * cursor's id is compared (a uuid, or text: a transfer's `<tx hash>-<log index>`).
 */
export type ListOrder = {
  kind: ListKind;
  moment: string;
  id: string;
  idType: "uuid" | "text";
};

/**
 * A timestamptz column as the list key's moment: ISO 8601 UTC with microseconds, exactly as
 * Postgres holds it (a JS Date would round to milliseconds, and rows inside one millisecond
 * would then repeat or vanish across pages).
 */
export function listMoment(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * The rows strictly past the row at `key` in a walk by (moment, id): `(moment, id) < key` newest
 * first (a list's next page), `>` oldest first (an export's next batch). A row comparison, which
 * Postgres walks as one index range. `id` may be an expression (`r.id::text`) where the walk
 * orders by one.
 */
export function pastKey(
  order: Omit<ListOrder, "kind" | "id"> & { id: string | RawBuilder<unknown> },
  key: ListKey,
  direction: "desc" | "asc",
): RawBuilder<boolean> {
  const id = typeof order.id === "string" ? sql.ref(order.id) : order.id;
  const keyId = order.idType === "uuid" ? sql`${key.id}::uuid` : sql`${key.id}::text`;
  const past = direction === "desc" ? sql`<` : sql`>`;
  return sql<boolean>`(${sql.ref(order.moment)}, ${id}) ${past} (${key.at}::timestamptz, ${keyId})`;
}

/**
 * A page of `query`, newest first by `order`: the rows after `page.after`, each with its key's
 * moment (`list_at`), and the cursor of the next page. `limit + 1` rows are read: the extra row
 * only says whether a next page exists, so a list never ends on an empty page.
 */
export async function keysetPage<DB, TB extends keyof DB, Row extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, Row>,
  order: ListOrder,
  page: ListPage,
): Promise<ListResult<Row & { list_at: string }>> {
  const seek = page.after ? query.where(pastKey(order, page.after, "desc")) : query;
  const rows = await seek
    .select(listMoment(order.moment).as("list_at"))
    .$castTo<Row & { list_at: string }>()
    .orderBy(sql.ref(order.moment), "desc")
    .orderBy(sql.ref(order.id), "desc")
    .limit(page.limit + 1)
    .execute();
  const rowsOfPage = rows.slice(0, page.limit);
  const last = rowsOfPage.at(-1);
  return {
    rows: rowsOfPage,
    nextCursor:
      rows.length > page.limit && last
        ? encodeListCursor(order.kind, { at: last.list_at, id: last.id })
        : null,
  };
}

/**
 * The next `limit` rows of `query` oldest first by `order`, after the row at `after` (none: from
 * the first), each with its key's moment (`list_at`): one batch of a streamed export, which
 * continues after its last row.
 */
export function keysetBatch<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  order: ListOrder,
  after: ListKey | null,
  limit: number,
) {
  return (after ? query.where(pastKey(order, after, "asc")) : query)
    .select(listMoment(order.moment).as("list_at"))
    .orderBy(sql.ref(order.moment))
    .orderBy(sql.ref(order.id))
    .limit(limit);
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

/**
 * An invoice's or link's money of a list row: `received`, what the reconcile job last counted
 * (the payment_state row joined as `state`; 0 before any payment), and `refunded`, what its
 * confirmed refunds paid back.
 */
export function paymentTotals(owner: "invoice_id" | "link_id", idColumn: string, state: string) {
  return [
    sql<bigint>`coalesce(${sql.ref(`${state}.received`)}, 0::bigint)`.as("received"),
    confirmedRefundsOf(owner, idColumn).as("refunded"),
  ] as const;
}
