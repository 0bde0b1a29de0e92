import type { SelectQueryBuilder, UpdateQueryBuilder } from "kysely";
import type { Database } from "../database.ts";

/** The tables whose rows belong to one merchant: each has its own `id` and a `merchant_id`. */
type MerchantOwnedTable = {
  [T in keyof Database]: Database[T] extends { id: unknown; merchant_id: unknown } ? T : never;
}[keyof Database];

/** The table a select or an update reads or writes (never: any other query). */
type TableOf<QB> =
  QB extends SelectQueryBuilder<Database, infer TB, infer _O>
    ? TB
    : QB extends UpdateQueryBuilder<Database, infer UT, infer _TB, infer _O>
      ? UT
      : never;

/**
 * Narrows a select or an update of a merchant-owned table to the merchant's own row `id`:
 * `where id = … and merchant_id = …`. Tenant isolation in one place: a row is reached by its
 * id only together with its merchant, so another merchant's id reads (or changes) nothing, the
 * same answer as an id that does not exist (no existence oracle). Use with `$call`; a table
 * without `merchant_id` does not type-check.
 *
 * @example
 * db.selectFrom("app.invoice_schedules").selectAll().$call(merchantsOwnRow(merchantId, id))
 */
export function merchantsOwnRow(merchantId: string, id: string) {
  return <QB extends { where(lhs: "id" | "merchant_id", op: "=", rhs: string): QB }>(
    query: TableOf<QB> extends MerchantOwnedTable ? QB : never,
  ): QB => query.where("id", "=", id).where("merchant_id", "=", merchantId);
}
