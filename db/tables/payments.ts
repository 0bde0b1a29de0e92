import type { Generated } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { PayerAuthorizationStatus } from "../../domain/relayedAuthorization.ts";
import type { PayoutTrigger, RefundSource, RefundStatus } from "../../domain/statuses.ts";

/**
 * The columns of a relayed transfer's progress, a refund's or a payout's alike: both move
 * `requested → submitted → confirmed | failed`, written by one update (db/queries/transferProgress.ts).
 */
type TransferProgressColumns = {
  status: Generated<RefundStatus>;
  tx_hash: Generated<string | null>;
  error: Generated<string | null>;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  confirmed_at: Generated<Date | null>;
};

/** Counted payments, their state and events, refunds, payouts and gasless payments: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface PaymentTables {
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
    /** The counted payments in the owner's currency; null when priced in USDC (0042). */
    received_in_currency: bigint | null;
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
    /** Its owner's currency, and what it returns in it (migration 0044); null for USDC. */
    currency: Generated<Currency>;
    amount_in_currency: bigint | null;
  } & TransferProgressColumns;
  /** Payouts out of a managed wallet to a registered payout wallet (migration 0037). */
  "app.payouts": {
    id: string;
    merchant_id: string;
    from_address: string;
    to_address: string;
    nonce: string;
    amount: bigint;
    trigger: Generated<PayoutTrigger>;
  } & TransferProgressColumns;
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
}
