import type { Generated } from "kysely";
import type { RelayedStatus, SweepStatus } from "../../domain/statuses.ts";

/** Deposit addresses, the catch-up watermark, sweeps and the relayer's transactions: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface ChainTables {
  "app.deposit_addresses": {
    address: string;
    derivation_index: Generated<number>;
    created_at: Generated<Date>;
  };
  /** The start-up catch-up's watermark, per indexer schema (migration 0022). */
  "app.reconcile_watermarks": {
    indexer_schema: string;
    block_number: bigint;
    updated_at: Generated<Date>;
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
}
