import type { ColumnType, Generated } from "kysely";
import type { Role } from "../../domain/accessPolicy.ts";
import type {
  ApiKeyScope,
  AuditActor,
  MemberStatus,
  OneTimeLinkPurpose,
} from "../../domain/statuses.ts";

/** Merchants, their keys, sign-in links, sessions, settings, wallets and audit trail: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface MerchantTables {
  "app.merchants": {
    id: Generated<string>;
    email: string;
    last_invoice_number: Generated<number>;
    /** Per-merchant credit note counter (migration 0040), bumped under the merchant's row lock. */
    last_credit_note_number: Generated<number>;
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
    /** The member who made it (migration 0046). */
    member_id: string;
    /** The role it is limited to; null: whatever its scope allows (keys made before roles). */
    role: Role | null;
  };
  /** A merchant's team (migration 0046, docs/members.md). */
  "app.members": {
    id: Generated<string>;
    merchant_id: string;
    email: string;
    role: Role;
    status: MemberStatus;
    invited_by: string | null;
    created_at: Generated<Date>;
    joined_at: Date | null;
    removed_at: Date | null;
  };
  /** A member's one-time invitation link, by its token's hash (migration 0046). */
  "app.member_invitations": {
    id: Generated<string>;
    member_id: string;
    token_hash: string;
    created_at: Generated<Date>;
    expires_at: Date;
    used_at: Date | null;
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
    /** The member signed in (migration 0046). */
    member_id: string;
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
    /** The member who acted: its session, or the key's maker (migration 0046). */
    member_id: Generated<string | null>;
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
}
