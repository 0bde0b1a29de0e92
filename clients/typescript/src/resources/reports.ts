// Receivables and CSV exports.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type { QueryOf } from "../types.js";

/** `remit.receivables`. */
export function receivables(api: Operations) {
  return {
    /** What open invoices still owe, by vendor, in buckets by days past due. */
    report: (options?: RequestOptions) =>
      api.operation("get", "/api/reports/receivables", { options }),
    /** The same as CSV text. */
    csv: async (
      query: QueryOf<"/api/exports/receivables.csv", "get"> | Record<string, never> = {},
      options?: RequestOptions,
    ) => (await api.raw("/api/exports/receivables.csv", { query, options })).text(),
  };
}

export type Receivables = ReturnType<typeof receivables>;

/** `remit.exports`. */
export function csvExports(api: Operations) {
  return {
    /** The CSV of the invoices created in `from`…`to`, one row per line item. */
    invoices: async (
      query: QueryOf<"/api/exports/invoices.csv", "get">,
      options?: RequestOptions,
    ) => (await api.raw("/api/exports/invoices.csv", { query, options })).text(),
    /** The CSV of the payments and refunds in `from`…`to`. */
    payments: async (
      query: QueryOf<"/api/exports/payments.csv", "get">,
      options?: RequestOptions,
    ) => (await api.raw("/api/exports/payments.csv", { query, options })).text(),
    /** The CSV of aged receivables (as `receivables.csv`). */
    receivables: async (
      query: QueryOf<"/api/exports/receivables.csv", "get"> | Record<string, never> = {},
      options?: RequestOptions,
    ) => (await api.raw("/api/exports/receivables.csv", { query, options })).text(),
  };
}

export type Exports = ReturnType<typeof csvExports>;
