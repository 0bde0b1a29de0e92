import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, Executor } from "../database.ts";

/** A table of Remit's schema, by its kysely name (`app.invoices`). */
export type AppTable = keyof Database & string;

/** The columns of `T` that hold text (ids, slugs, addresses, purposes): what a row is found by. */
type TextColumn<T extends AppTable> = {
  [C in keyof Selectable<Database[T]>]: Selectable<Database[T]>[C] extends string ? C : never;
}[keyof Selectable<Database[T]>] &
  string;

/**
 * The same database, without kysely's per-table checks. Only for a helper generic over the
 * table (kysely cannot resolve a column of a table it does not know yet), which checks table,
 * columns and values in its own signature instead, as the ones below do.
 */
export const untyped = (db: Executor) =>
  db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/**
 * The row of `table` whose `column` is `value`, with all its columns, or undefined: a lookup
 * by a key (an id, a slug, a deposit address), the first row found when it is not unique. With `forUpdate`, the row is also locked until
 * the caller's transaction ends: whoever locks it next waits for that transaction.
 *
 * @example
 * findRowWhere(trx, "app.invoices", "deposit_address", address, { forUpdate: true })
 */
export async function findRowWhere<T extends AppTable>(
  db: Executor,
  table: T,
  column: TextColumn<T>,
  value: string,
  options: { forUpdate?: boolean } = {},
): Promise<Selectable<Database[T]> | undefined> {
  const query = untyped(db)
    .selectFrom(table)
    .selectAll()
    .where(column as string, "=", value);
  const row = await (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
  return row as Selectable<Database[T]> | undefined;
}

/** Inserts one row into `table` and answers it as stored (its defaults and triggers applied). */
export async function insertRow<T extends AppTable>(
  db: Executor,
  table: T,
  values: Insertable<Database[T]>,
): Promise<Selectable<Database[T]>> {
  return (await untyped(db)
    .insertInto(table)
    .values(values as Record<string, unknown>)
    .returningAll()
    .executeTakeFirstOrThrow()) as Selectable<Database[T]>;
}

/**
 * findRowWhere bound to a table and its key column: a query module's named lookup in one line,
 * `export const findSweep = rowFinder("app.sweeps", "id")`. With `pattern`, a value that does
 * not match it (a malformed id or slug from a URL) finds nothing without asking the database
 * (Postgres would refuse a malformed uuid, or a NUL byte in text).
 */
export function rowFinder<T extends AppTable>(
  table: T,
  column: TextColumn<T>,
  options: { pattern?: RegExp } = {},
) {
  return async (db: Executor, value: string): Promise<Selectable<Database[T]> | undefined> =>
    options.pattern && !options.pattern.test(value)
      ? undefined
      : findRowWhere(db, table, column, value);
}

/** insertRow bound to a table: `export const insertSweep = rowInserter("app.sweeps")`. */
export function rowInserter<T extends AppTable>(table: T) {
  return (db: Executor, values: Insertable<Database[T]>): Promise<Selectable<Database[T]>> =>
    insertRow(db, table, values);
}
