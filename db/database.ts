import { Kysely, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
import type { ChainTables } from "./tables/chain.ts";
import type { InvoiceTables } from "./tables/invoices.ts";
import type { LinkTables } from "./tables/links.ts";
import type { MerchantTables } from "./tables/merchants.ts";
import type { OperationsTables } from "./tables/operations.ts";
import type { PaymentTables } from "./tables/payments.ts";
import type { RateTables } from "./tables/rates.ts";
import type { ScheduleTables } from "./tables/schedules.ts";
import type { WebhookTables } from "./tables/webhooks.ts";

/** Remit's tables (schema `app`), as kysely sees them, one file per area (db/tables/). Amounts are USDC base units. */
export interface Database
  extends InvoiceTables,
    ScheduleTables,
    LinkTables,
    PaymentTables,
    RateTables,
    MerchantTables,
    WebhookTables,
    ChainTables,
    OperationsTables {}

export type Db = Kysely<Database>;

/** What a query function runs on: the database, or the caller's transaction (the caller owns the unit of work). */
export type Executor = Db | Transaction<Database>;

// Postgres bigint (int8) arrives as a string by default; money must never pass through a JS
// number, so int8 becomes a bigint. A `date` stays the YYYY-MM-DD string it is: turning it into
// a JS Date would shift it by the process's time zone. Scoped to our own pools: set globally,
// it would reach graphile-worker's queries too, whose job ids it cannot serialise.
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === pg.types.builtins.INT8) return (value: string) => BigInt(value);
    if (oid === pg.types.builtins.DATE) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

export type PoolOptions = {
  max?: number;
  /** How long a query waits for a free connection before failing (never forever). */
  connectionTimeoutMs?: number;
  /** Server-side cap on one statement (a lock wait included); unset: none. */
  statementTimeoutMs?: number;
};

/** A kysely instance over a pg pool; the caller destroys it. */
export function createDb(connectionString: string, options: PoolOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    types,
  });
  // An idle client's error (the server restarted) must not crash the process; the pool
  // replaces the client and the next query reconnects.
  pool.on("error", () => {});
  // The same for a client checked out between two queries of a transaction (the server
  // terminated it): its next query fails and the pool discards it; no process crash.
  pool.on("connect", (client) => client.on("error", () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
