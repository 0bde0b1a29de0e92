import type { CoreDeps } from "../app/deps.ts";
import type { FeedReader } from "../app/payments/convertOwnerPayments.ts";
import type { WebhookDeliverySettings } from "../app/webhooks/deliverWebhook.ts";
import type { TransactionLookup } from "../chain/transactionMined.ts";
import type { Clock } from "../db/clock.ts";
import type { Db } from "../db/database.ts";
import type { SweepSettings } from "../domain/sweepPolicy.ts";
import type { Mailer } from "../email/mailer.ts";
import type { AuthorizationMover } from "./relayer/moveByAuthorization.ts";
import type { Relayer } from "./relayer/relayer.ts";

/** What the worker's tasks need from the process. */
export type WorkerDeps = {
  db: Db;
  mailer: Mailer;
  /** The From of every email, e.g. `Remit <billing@example.com>`. */
  emailFrom: string;
  baseUrl: string;
  payUrl: string;
  /** Ponder's schema for this build: the transfers and the indexed head are read there. */
  indexerSchema: string;
  /** The chain, read-only: to confirm that a transfer the index lost is really gone. */
  chain: TransactionLookup;
  /** The price feeds, read through their own batching client (chain/priceFeeds.ts createFeedReader). */
  feeds: FeedReader;
  confirmations: number;
  /** Sweep every counted payment automatically (SWEEP=on); otherwise only on request. */
  autoSweep: boolean;
  /** When and how much to sweep (SWEEP_MIN_AMOUNT, SWEEP_PARTIAL_AFTER): domain/sweepPolicy.ts. */
  sweepPolicy: SweepSettings;
  /** EXCESS_DUST_THRESHOLD in base units: dust held after an exact payment, notices coalesced. */
  dustThreshold: bigint;
  /** Sweeping funds to merchants' wallets; absent without a relayer. */
  sweep?: {
    mnemonic: string;
    /** Submits the sweeps' transactions: one nonce sequence (worker/relayer/submit.ts). */
    relayer: Relayer;
    /** Read and simulated on before anything is sent (worker/relayer/moveByAuthorization.ts). */
    chain: AuthorizationMover["chain"];
  };
  /**
   * Renders documents' PDFs from their stored records (the render_pdf job, a vendor email whose
   * PDF is not stored yet; app/documentPdf.ts), on threads of this process.
   */
  pdf: CoreDeps["pdf"];
  /** The service seed, for the managed wallets' hardened derivation (never in the API). */
  managedWalletSeed: string;
  explorerUrl: string | null;
  /** `keys` opens the sealed webhook secrets to sign with (app/webhooks/deliverWebhook.ts). */
  webhooks: WebhookDeliverySettings;
  /**
   * Invoice schedules and reminders: what POST /api/invoices' code path needs (a schedule's
   * invoices are created through it) and the clock they read; absent: those tasks do nothing.
   */
  schedules?: { app: CoreDeps; clock: Clock };
};
