/**
 * Every status list of Remit's records, once: the kysely table types (db/tables/), the zod
 * schemas of the API (and so the OpenAPI document) and the metrics read them from here. The
 * migrations' check constraints name the same strings; migrations are frozen in time, so a
 * change here needs a new migration beside it.
 */

/**
 * An invoice's stored status (app.invoices.status, spec §3.1), and `void` (migration 0023, an
 * addition to §3.1: cancelled unpaid; a payment that still arrives changes nothing).
 */
export const INVOICE_STATUSES = ["draft", "sent", "paid", "partial", "excess", "void"] as const;
export type StoredInvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** What an invoice reports: its stored status, or the derived `overdue` (never stored). */
export const REPORTED_INVOICE_STATUSES = [...INVOICE_STATUSES, "overdue"] as const;
export type ReportedInvoiceStatus = (typeof REPORTED_INVOICE_STATUSES)[number];

/** A payment link's status (app.payment_links.status, spec §3.2). */
export const LINK_STATUSES = ["pending", "confirmed", "partial", "excess"] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** Where the funds of an invoice or link end up: a wallet Remit manages, or the merchant's own. */
export const WALLET_TYPES = ["managed", "byo"] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

/** A sweep of a deposit address to the merchant's wallet (app.sweeps.status). */
export const SWEEP_STATUSES = ["signed", "submitted", "confirmed", "failed"] as const;
export type SweepStatus = (typeof SWEEP_STATUSES)[number];

/** A refund (app.refunds.status): requested, then submitted, then confirmed on chain; or failed. */
export const REFUND_STATUSES = ["requested", "submitted", "confirmed", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Where a refund's money leaves from: the deposit address, or the merchant's managed wallet. */
/** What made a payout out of the managed wallet (migration 0037). */
export const PAYOUT_TRIGGERS = ["request", "automatic"] as const;
export type PayoutTrigger = (typeof PAYOUT_TRIGGERS)[number];

export const REFUND_SOURCES = ["deposit", "managed_wallet"] as const;
export type RefundSource = (typeof REFUND_SOURCES)[number];

/** A relayed transaction (app.relayer_transactions, worker/relayer/submit.ts). */
export const RELAYED_STATUSES = ["pending", "mined", "dropped"] as const;
export type RelayedStatus = (typeof RELAYED_STATUSES)[number];

/** A webhook delivery: one event to one URL, with its retries (app.webhook_deliveries.status). */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed", "gone"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * How one webhook attempt ended, from its recorded status code: 2xx delivered, 410 gone,
 * another status http_error, none (timeout, network error, refused address) no_response.
 */
export const WEBHOOK_ATTEMPT_OUTCOMES = ["delivered", "gone", "http_error", "no_response"] as const;
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];

/** An email of the outbox (app.emails.status): sending is handed to SendGrid, not yet recorded. */
export const EMAIL_STATUSES = ["queued", "sending", "sent", "failed"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What an API key may do (app.api_keys.scope): `read` lists and reads, `write` also acts. */
export const API_KEY_SCOPES = ["write", "read"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Who performed an audited action (app.audit_log.actor). */
export const AUDIT_ACTORS = ["key", "anonymous", "claim", "operator", "dashboard"] as const;
export type AuditActor = (typeof AUDIT_ACTORS)[number];

/** A member of a merchant's team (app.members.status, migration 0046). */
export const MEMBER_STATUSES = ["invited", "active", "removed"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** What a one-time email link does (app.claim_tokens.purpose, migration 0024). */
export const ONE_TIME_LINK_PURPOSES = ["claim", "dashboard_sign_in"] as const;
export type OneTimeLinkPurpose = (typeof ONE_TIME_LINK_PURPOSES)[number];
