import { type ColumnType, type Generated, Kysely, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
import type { PayerAuthorizationStatus } from "../domain/relayedAuthorization.ts";
import type { ScheduleFrequency, ScheduleStatus } from "../domain/schedule.ts";
import type {
  ApiKeyScope,
  AuditActor,
  EmailStatus,
  LinkStatus,
  OneTimeLinkPurpose,
  RefundSource,
  RefundStatus,
  RelayedStatus,
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
    /** false: a wallet made before managed wallets were hardened (db/migrations/0017). */
    managed_wallet_hardened: Generated<boolean>;
    created_at: Generated<Date>;
    /** Set once the email is verified: from then on it acts only through its API keys. */
    claimed_at: Generated<Date | null>;
    /** The registered business name, reserved to this merchant, and its normalised form. */
    name: Generated<string | null>;
    name_key: Generated<string | null>;
    /** A shortfall of at most this still counts as paid (db/migrations/0021); 0: exact. */
    underpayment_tolerance: Generated<bigint>;
  };
  "app.managed_wallet_pool": {
    derivation_index: number;
    address: string;
    created_at: Generated<Date>;
  };
  "app.api_keys": {
    id: Generated<string>;
    merchant_id: string;
    key_hash: string;
    last_four: string;
    name: string;
    scope: ApiKeyScope;
    created_at: Generated<Date>;
    last_used_at: Date | null;
    revoked_at: Date | null;
  };
  "app.claim_tokens": {
    id: Generated<string>;
    email: string;
    token_hash: string;
    created_at: Generated<Date>;
    expires_at: Date;
    used_at: Date | null;
    /** What the link does (migration 0024): claim an account, or sign in to the dashboard. */
    purpose: Generated<OneTimeLinkPurpose>;
    /** HMAC of the requesting client's address (migration 0026): the per-client cap. */
    client_hash: Generated<string | null>;
    /** The token, sealed, while the link may be emailed again; null once used or expired (0026). */
    sealed: Generated<string | null>;
    /** When the link was last emailed beyond the caps (0026): at most one such email per few minutes. */
    over_cap_sent_at: Generated<Date | null>;
  };
  /** Signed-in dashboard browsers (migration 0024, docs/dashboard.md). */
  "app.dashboard_sessions": {
    id: Generated<string>;
    merchant_id: string;
    token_hash: string;
    created_at: Generated<Date>;
    last_seen_at: Generated<Date>;
    expires_at: Date;
  };
  /** A merchant's dashboard settings (migration 0024). */
  "app.merchant_settings": {
    merchant_id: string;
    default_name: string | null;
    default_address: string | null;
    notification_email: string | null;
    updated_at: Generated<Date>;
    /** A new notification email waiting for its link to be followed (migration 0027). */
    pending_notification_email: Generated<string | null>;
    /** SHA-256 of that link's token; it works once, until pending_expires_at. */
    pending_token_hash: Generated<string | null>;
    pending_expires_at: Generated<Date | null>;
  };
  "app.payout_wallets": {
    id: Generated<string>;
    merchant_id: string;
    address: string;
    created_at: Generated<Date>;
    removed_at: Date | null;
  };
  "app.audit_log": {
    id: Generated<bigint>;
    merchant_id: string;
    key_id: string | null;
    actor: AuditActor;
    action: string;
    target: string;
    request_id: string | null;
    created_at: Generated<Date>;
    /** What the entry changed, old -> new (migration 0027): {"field": {"from", "to"}}. */
    details: ColumnType<
      Record<string, { from: string | null; to: string | null }> | null,
      string | undefined,
      never
    >;
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
    /** When the invoice was voided (migration 0023); null unless `void`. */
    voided_at: Generated<Date | null>;
    /** The merchant's underpayment tolerance when the invoice was created (set by a trigger). */
    underpayment_tolerance: ColumnType<bigint, never, never>;
    /** The schedule that issued it, and for which period (its date), migration 0033. */
    schedule_id: Generated<string | null>;
    schedule_period: Generated<string | null>;
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
  /** What `q` searches in an invoice (migration 0020): written by triggers, never by code. */
  "app.invoice_search": {
    invoice_id: string;
    merchant_id: string;
    document: string;
  };
  /** Every counted transfer, written by reconcile with the payment state (migration 0020). */
  "app.payments": {
    /** The indexer's id: `<tx hash>-<log index>`. */
    id: string;
    merchant_id: string;
    deposit_address: string;
    invoice_id: string | null;
    link_id: string | null;
    payer: string;
    amount: bigint;
    tx_hash: string;
    log_index: number;
    block_number: bigint;
    block_time: Date;
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
    merchant_id: string;
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
    /** What an email needs beyond a row reference (the wallet added, say); never a secret. */
    details: ColumnType<Record<string, string> | null, string | undefined, never>;
    /** A secret the email carries (the claim link), sealed; cleared once sent. */
    sealed: Generated<string | null>;
    /** A `sweep_failed` email's sweep (migration 0012). */
    sweep_id: Generated<string | null>;
    /** The refund a refund email is about (migration 0023). */
    refund_id: Generated<string | null>;
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
    /** paid_amount of the last event (migration 0014). */
    notified_received: Generated<bigint>;
    /** Since when counted transfers are missing from the index but still mined (0014). */
    lost_since: Date | null;
  };
  /** The start-up catch-up's watermark, per indexer schema (migration 0022). */
  "app.reconcile_watermarks": {
    indexer_schema: string;
    block_number: bigint;
    updated_at: Generated<Date>;
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
    /** Its invoice's or link's merchant, filled by a trigger when not given (migration 0032). */
    merchant_id: Generated<string | null>;
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
    /** The merchant's webhook endpoint it goes to; null: the invoice's or link's webhook_url. */
    endpoint_id: Generated<string | null>;
  };
  /** A merchant's webhook endpoints (migration 0032); secrets sealed (domain/secretBox.ts). */
  "app.webhook_endpoints": {
    id: Generated<string>;
    merchant_id: string;
    url: string;
    /** null: every event type. */
    events: string[] | null;
    secret: string;
    previous_secret: Generated<string | null>;
    previous_secret_expires_at: Generated<Date | null>;
    enabled: Generated<boolean>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
    deleted_at: Generated<Date | null>;
  };
  /** Refunds out of a deposit address or managed wallet (migration 0023, domain/refundPlan.ts). */
  "app.refunds": {
    id: string;
    invoice_id: string | null;
    link_id: string | null;
    merchant_id: string;
    source: RefundSource;
    from_address: string;
    nonce: string;
    amount: bigint;
    to_address: string | null;
    to_sender: Generated<boolean>;
    claim_token_hash: string | null;
    claim_expires_at: Date | null;
    claimed_at: Generated<Date | null>;
    status: Generated<RefundStatus>;
    tx_hash: Generated<string | null>;
    error: Generated<string | null>;
    attempts: Generated<number>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
    confirmed_at: Generated<Date | null>;
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
    /** The relayer nonce of the sweep's current submission (migration 0012). */
    relayer_nonce: bigint | null;
  };
  "app.relayer_nonces": {
    address: string;
    next_nonce: bigint;
    updated_at: Generated<Date>;
  };
  "app.relayer_transactions": {
    id: Generated<string>;
    purpose: string;
    relayer: string;
    nonce: bigint;
    to_address: string;
    data: string;
    gas: bigint;
    /** numeric(78,0): wei, read as a decimal string. */
    max_fee_per_gas: string;
    max_priority_fee_per_gas: string;
    signed: string;
    hashes: string[];
    status: Generated<RelayedStatus>;
    sent_block: bigint | null;
    mined_hash: string | null;
    mined_block: bigint | null;
    receipt_status: "success" | "reverted" | null;
    last_error: string | null;
    /** The merchant it was paid for (its daily gas budget); null before migration 0028 could tell. */
    merchant_id: string | null;
    /** Gas its receipt says it used; null until mined. */
    gas_used: bigint | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  "app.payer_authorizations": {
    id: Generated<string>;
    deposit_address: string;
    payer: string;
    value: bigint;
    valid_after: bigint;
    valid_before: bigint;
    nonce: string;
    signature: string;
    gas_reserved: bigint;
    status: Generated<PayerAuthorizationStatus>;
    tx_hash: string | null;
    gas_used: bigint | null;
    error: string | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  "app.webhook_attempts": {
    id: Generated<bigint>;
    delivery_id: string;
    attempt: number;
    attempted_at: Generated<Date>;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
  };
  "app.invoice_schedules": {
    id: Generated<string>;
    merchant_id: string;
    key_id: string | null;
    template: ColumnType<Record<string, unknown>, string, string>;
    frequency: ScheduleFrequency;
    every_n_days: number | null;
    start_date: string;
    end_date: string | null;
    max_count: number | null;
    days_until_due: number;
    status: Generated<ScheduleStatus>;
    next_period: Generated<number>;
    next_issue_date: string | null;
    issued_count: Generated<number>;
    last_error: Generated<string | null>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  "app.test_clock": {
    id: Generated<boolean>;
    offset_ms: bigint;
  };
  "app.reminder_policies": {
    merchant_id: string;
    enabled: boolean;
    step_days: number[];
    step_enabled: boolean[];
    max_reminders: number;
    updated_at: Generated<Date>;
  };
  "app.invoice_reminders": {
    id: Generated<string>;
    invoice_id: string;
    step: number | null;
    amount_due: bigint;
    email_id: string | null;
    sent_at: Date;
    created_at: Generated<Date>;
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
