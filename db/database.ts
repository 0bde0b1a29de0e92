import { type ColumnType, type Generated, Kysely, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
import type {
  EmailStatus,
  LinkStatus,
  StoredInvoiceStatus,
  SweepStatus,
  WalletType,
  WebhookDeliveryStatus,
} from "../domain/statuses.ts";

/** Remit's tables (schema `app`), as kysely sees them. Amounts are USDC base units. */
export interface Database {
  "app.deposit_addresses": {
    address: string;
    derivation_index: Generated<number>;
    created_at: Generated<Date>;
  };
  "app.heartbeats": {
    component: string;
    instance: Generated<string>;
    pid: number;
    worker_ids: Generated<string[]>;
    beat_at: Generated<Date>;
  };
  "app.merchants": {
    id: Generated<string>;
    email: string;
    last_invoice_number: Generated<number>;
    managed_wallet_index: number | null;
    managed_wallet_address: string | null;
    /** false: a wallet made before managed wallets were hardened (db/migrations/0013). */
    managed_wallet_hardened: Generated<boolean>;
    created_at: Generated<Date>;
  };
  "app.managed_wallet_pool": {
    derivation_index: number;
    address: string;
    created_at: Generated<Date>;
  };
  "app.invoices": {
    id: Generated<string>;
    merchant_id: string;
    invoice_number: string;
    slug: string;
    merchant_email: string;
    merchant_name_snapshot: string;
    merchant_address_snapshot: string;
    vendor_email: string;
    vendor_name: string;
    vendor_address: string | null;
    // `date` columns travel as YYYY-MM-DD strings (see the type parser below).
    issue_date: string;
    due_date: string;
    notes: string | null;
    wallet_type: WalletType;
    wallet_address: string;
    deposit_address: string;
    total_amount: bigint;
    webhook_url: string | null;
    webhook_secret: string | null;
    status: StoredInvoiceStatus;
    sent_at: Date | null;
    created_at: ColumnType<Date, Date | undefined, never>;
  };
  "app.invoice_line_items": {
    invoice_id: string;
    position: number;
    description: string;
    // numeric arrives as a string: the quantity exactly as it was sent.
    quantity: ColumnType<string, string, never>;
    unit_price: bigint;
    line_total: bigint;
  };
  "app.payment_links": {
    id: string;
    slug: string;
    merchant_id: string;
    merchant_email: string;
    amount: bigint;
    description: string;
    wallet_type: WalletType;
    wallet_address: string;
    deposit_address: string;
    webhook_url: string | null;
    webhook_secret: string | null;
    metadata: ColumnType<Record<string, string | number | boolean | null>, string, never>;
    redirect_url: string | null;
    /** Shown on the checkout; null when the merchant's name is not known. */
    merchant_name: string | null;
    status: Generated<LinkStatus>;
    created_at: ColumnType<Date, Date | undefined, never>;
  };
  "app.invoice_pdfs": {
    invoice_id: string;
    pdf: Buffer;
    sha256: string;
  };
  "app.idempotency_keys": {
    key: string;
    operation: string;
    request_hash: string;
    response_status: number;
    /** The response exactly as first sent (JSON text). */
    response_body: string;
    invoice_id: string | null;
    link_id: Generated<string | null>;
    created_at: Generated<Date>;
  };
  "app.emails": {
    id: Generated<string>;
    kind: string;
    invoice_id: string | null;
    recipient: string;
    status: Generated<EmailStatus>;
    attempts: Generated<number>;
    last_error: string | null;
    sent_at: Date | null;
    handed_over_at: Generated<Date | null>;
    event_id: string | null;
    created_at: Generated<Date>;
  };
  "app.payment_state": {
    deposit_address: string;
    invoice_id: string | null;
    link_id: string | null;
    received: bigint;
    counted: string[];
    latest_tx_hash: string | null;
    latest_paid_at: Date | null;
    updated_at: Date;
  };
  "app.payment_events": {
    id: string;
    invoice_id: string | null;
    link_id: string | null;
    type: string;
    status: string;
    paid_amount: bigint;
    tx_hash: string | null;
    paid_at: Date | null;
    payload: string;
    created_at: Generated<Date>;
  };
  "app.webhook_deliveries": {
    id: Generated<string>;
    event_id: string;
    url: string;
    status: Generated<WebhookDeliveryStatus>;
    attempts: Generated<number>;
    next_attempt_at: Date | null;
    delivered_at: Date | null;
    created_at: Generated<Date>;
  };
  "app.sweeps": {
    id: Generated<string>;
    deposit_address: string;
    sequence: number;
    nonce: string;
    destination: string;
    amount: bigint;
    status: Generated<SweepStatus>;
    tx_hash: string | null;
    error: string | null;
    attempts: Generated<number>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  "app.webhook_attempts": {
    id: Generated<string>;
    delivery_id: string;
    attempt: number;
    attempted_at: Generated<Date>;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
  };
}

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
