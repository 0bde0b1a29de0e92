import type { ColumnType, Generated } from "kysely";
import type { EmailStatus } from "../../domain/statuses.ts";

/** Emails, idempotency keys, process heartbeats and the test clock: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface OperationsTables {
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
    /** The payout a payout email is about (migration 0037). */
    payout_id: Generated<string | null>;
    /** The credit note a `credit_note` email carries (migration 0040). */
    credit_note_id: Generated<string | null>;
    created_at: Generated<Date>;
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
  "app.heartbeats": {
    component: string;
    instance: Generated<string>;
    pid: number;
    worker_ids: Generated<string[]>;
    beat_at: Generated<Date>;
  };
  "app.test_clock": {
    id: Generated<boolean>;
    offset_ms: bigint;
  };
}
