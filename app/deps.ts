import type { Clock } from "../db/clock.ts";
import type { Db } from "../db/database.ts";
import type { EmailBudget } from "../domain/emailBudget.ts";
import type { RelayerBudget } from "../domain/relayerBudget.ts";
import type { Keyring } from "../domain/secretBox.ts";
import type { Logger } from "../internal/logger.ts";
import type { InvoicePdfData } from "../pdf/invoiceDocument.ts";
import type { AuthSettings } from "./actor.ts";

/**
 * What the application's use cases and read models need from their process: connections and
 * settings. Its one secret is the key sealing webhook secrets at rest; it can never sign a
 * transaction. The adapters' own settings (rate limits per IP, cookies, caches) are theirs
 * (api/deps.ts adds them).
 */
export type CoreDeps = {
  db: Db;
  rpcUrl: string;
  indexerSchema: string;
  /** Public origins used in every URL handed out. */
  baseUrl: string;
  payUrl: string;
  /**
   * The deposit addresses' extended public key: the API derives them but can never sign. It
   * holds nothing able to derive managed wallets (hardened; the worker's pool provides them).
   */
  depositXpub: string;
  /** Where the local email capture writes messages; null when real SendGrid is used. */
  outboxDir: string | null;
  /** Local development: webhook URLs may be http and point at loopback or private hosts. */
  allowPrivateWebhooks: boolean;
  /** Block explorer for transaction links. */
  explorerUrl: string | null;
  /** The sweeps' relayer, whose ETH /health reports; absent with SWEEP=off. */
  relayerAddress?: string;
  /** Seals a new invoice's or link's webhook secret; opens it for an idempotent replay. */
  webhookKeys: Keyring;
  log: Logger;
  /** AUTH_MODE and MERCHANT_SIGNUP; none: open, as locally (tests of the app alone). */
  auth?: AuthSettings;
  /** Per-key and per-IP budgets of the account routes; none: unlimited (tests of the app alone). */
  accountLimits?: AccountLimits;
  /** Gasless payments (relayed by the worker with `relayerAddress`); none: not offered. */
  gasless?: GaslessSettings;
  /**
   * The relayer's daily gas budgets, for everything it pays (RELAYER_DAILY_GAS_BUDGET,
   * RELAYER_MERCHANT_DAILY_GAS_BUDGET); none: no gasless payments, refunds unlimited (tests of
   * the app alone).
   */
  relayerBudget?: RelayerBudget;
  /** REFUND_MINIMUM and REFUNDS_PER_MERCHANT_PER_HOUR; none: no minimum, no rate (tests of the app alone). */
  refundLimits?: RefundLimits;
  /** EMAILS_TO_OTHERS_PER_HOUR and _PER_DAY (app/emailBudget.ts); none: no budget (tests of the app alone). */
  emailBudget?: EmailBudget;
  /** Renders invoice PDFs off the event loop (pdf/renderPool.ts: worker threads). */
  pdf: { render(data: InvoicePdfData): Promise<Buffer> };
  /** The time schedules' run-now, reminders and the receivables report read (db/clock.ts); none: the system's. */
  clock?: Clock;
};

/**
 * The settings below are the use cases' and the routes' (api/auth/registerAuth.ts,
 * api/payments/authorizations.ts, api/transactions/lookupTransaction.ts), declared here so that
 * this file, which every use case and route imports, imports none of them.
 */

/** Requests a minute (0: no limit): every request of one key; redeliveries per key and per IP; claims per IP. */
export type AccountLimits = {
  perKey: number;
  redeliveries: number;
  claims: number;
};

/** Gasless payments' settings (RELAYER_DAILY_GAS_BUDGET and friends, docs/api.md). */
/**
 * Gasless payments' settings (docs/api.md); their gas counts in the relayer's daily budgets
 * (CoreDeps.relayerBudget: RELAYER_DAILY_GAS_BUDGET, 0 turning them off, and the merchant's).
 */
export type GaslessSettings = {
  /** How long a request waits for the worker to submit before answering 202. */
  submitWaitMs: number;
  /** Authorizations per invoice or link, payer and minute (0: no limit). */
  perSlugPerMinute: number;
};

/** The settings of transaction lookups (from the API process's env). */
export type TransactionLookupSettings = {
  /** CONFIRMATIONS: blocks a transfer needs before it counts. */
  confirmations: number;
  /** RATE_LIMIT_TX_LOOKUP_PER_MIN; 0: unlimited. */
  perMinute: number;
};

/** REFUND_MINIMUM and REFUNDS_PER_MERCHANT_PER_HOUR (docs/api.md, "Refunds"). */
export type RefundLimits = {
  /** The smallest refund, in USDC base units. */
  minimum: bigint;
  /** Refunds one merchant may request in any hour; 0: no limit. */
  perMerchantPerHour: number;
};
