/**
 * The worker's task names (graphile-worker's task identifiers), by what each does. The file
 * name of each task in `worker/tasks/` is its name.
 *
 * SQL migrations are frozen in time and name the same strings themselves: `send_email` in
 * `0002_invoices.sql` (app.enqueue_email), `deliver_webhook` and `reconcile_deposit` in
 * `0003_payments.sql` (app.enqueue_webhook_delivery, app.enqueue_reconcile, redefined by 0047
 * and 0050). Renaming one
 * here takes a new migration that redefines those trigger functions, and the jobs already
 * queued under the old name.
 */
export const TASK = {
  sendEmail: "send_email",
  reconcileDeposit: "reconcile_deposit",
  reconcileAll: "reconcile_all",
  deliverWebhook: "deliver_webhook",
  sweepDeposit: "sweep_deposit",
  /** Submits a payer's verified gasless authorization (queued by the trigger of 0015). */
  relayAuthorization: "relay_authorization",
  /** Looks at a submitted sweep's transaction: mined, still pending (re-sent at a higher fee), or dropped. */
  checkSweep: "check_sweep",
  /** Named in 0017_hardened_managed_wallets.sql (app.refill_managed_wallet_pool). */
  provisionManagedWallets: "provision_managed_wallets",
  /**
   * Signs and relays a refund (queued by the trigger of 0023 once it has a destination), and
   * fails one whose claim link expired unclaimed (queued for then).
   */
  submitRefund: "submit_refund",
  /** Looks at a submitted refund's transaction, then waits for the indexer to see it. */
  checkRefund: "check_refund",
  /** Signs and relays a payout out of a managed wallet (queued by the trigger of 0037). */
  submitPayout: "submit_payout",
  /** Looks at a submitted payout's transaction until it is mined (or submitted again). */
  checkPayout: "check_payout",
  /** Every minute (cron): queues an issue_schedule job per schedule with a period due. */
  issueDueSchedules: "issue_due_schedules",
  /** Issues one schedule's due periods, each once (app/schedules/issue.ts). */
  issueSchedule: "issue_schedule",
  /** Every minute (cron): the reminders and due-date events whose day has come. */
  sendDueReminders: "send_due_reminders",
  /** Renders a created document's PDF from its stored record, once (app/documentPdf.ts). */
  renderPdf: "render_pdf",
} as const;

export type TaskName = (typeof TASK)[keyof typeof TASK];

/**
 * graphile-worker job priorities (lower runs first among due jobs of a queue). Real-time work,
 * a transfer just indexed, runs ahead of the start-up catch-up, so a payment arriving right
 * after a restart never waits behind the reconciles of older history.
 */
export const JOB_PRIORITY = {
  /** What the transfer trigger, a recheck and every other job queue: graphile-worker's default. */
  realtime: 0,
  /** The start-up catch-up's reconciles (db/queries/reconcileCatchUp.ts). */
  catchUp: 100,
} as const;

/**
 * The prefixes of the job keys, for SQL that builds a key from a column (`prefix || address`).
 * The migrations above write the same ones: `email:` (0002), `webhook:` and `reconcile:` (0003).
 */
export const JOB_KEY_PREFIX = {
  reconcile: "reconcile:",
  sweep: "sweep:",
  sweepCheck: "sweep-check:",
  email: "email:",
  webhook: "webhook:",
  relay: "relay:",
  refund: "refund:",
  refundCheck: "refund-check:",
  refundExpiry: "refund-expiry:",
  payout: "payout:",
  payoutCheck: "payout-check:",
  schedule: "schedule:",
  pdf: "pdf:",
} as const;

/**
 * graphile-worker job keys: jobs under one key collapse into one (a burst of transfers to an
 * address reconciles it once). Addresses are lowercase, as stored.
 *
 * @example jobKey.reconcile("0xab…") // "reconcile:0xab…"
 */
export const jobKey = {
  /** The one pending reconcile of a deposit address. */
  reconcile: (address: string) => `${JOB_KEY_PREFIX.reconcile}${address}`,
  /** The one pending sweep of a deposit address; also the name of its advisory lock. */
  sweep: (address: string) => `${JOB_KEY_PREFIX.sweep}${address}`,
  /** The one pending check of a submitted sweep (by the sweep's id). */
  sweepCheck: (sweepId: string) => `${JOB_KEY_PREFIX.sweepCheck}${sweepId}`,
  /** An email's delivery (queued by the trigger of 0002). */
  email: (emailId: string) => `${JOB_KEY_PREFIX.email}${emailId}`,
  /** A webhook delivery's first attempt (queued by the trigger of 0003). */
  webhook: (deliveryId: string) => `${JOB_KEY_PREFIX.webhook}${deliveryId}`,
  /**
   * A later attempt of a webhook delivery: a key of its own, since the job scheduling it still
   * holds the previous one while it runs.
   */
  webhookAttempt: (deliveryId: string, attempt: number) =>
    `${JOB_KEY_PREFIX.webhook}${deliveryId}:${attempt}`,
  /** A payer's gasless payment: its submission, then each look at its transaction (0015). */
  relay: (authorizationId: string) => `${JOB_KEY_PREFIX.relay}${authorizationId}`,
  /** A refund's submission (queued by the trigger of 0023). */
  refund: (refundId: string) => `${JOB_KEY_PREFIX.refund}${refundId}`,
  /** The one pending look at a submitted refund. */
  refundCheck: (refundId: string) => `${JOB_KEY_PREFIX.refundCheck}${refundId}`,
  /** The end of a refund's claim link. */
  refundExpiry: (refundId: string) => `${JOB_KEY_PREFIX.refundExpiry}${refundId}`,
  /** A payout's submission (queued by the trigger of 0037). */
  payout: (payoutId: string) => `${JOB_KEY_PREFIX.payout}${payoutId}`,
  /** The one pending look at a submitted payout. */
  payoutCheck: (payoutId: string) => `${JOB_KEY_PREFIX.payoutCheck}${payoutId}`,
  /** The one pending issue of a schedule's due periods. */
  schedule: (scheduleId: string) => `${JOB_KEY_PREFIX.schedule}${scheduleId}`,
  /** The render of a document's PDF (`invoice` or `creditNote`, by its id). */
  pdf: (kind: string, id: string) => `${JOB_KEY_PREFIX.pdf}${kind}:${id}`,
  /**
   * The start-up catch-up of one indexer build: reconciles what may have changed while no worker
   * ran. One per build, so a release starting beside another (an upgrade) queues its own.
   */
  reconcileAll: (indexerSchema: string) => `${TASK.reconcileAll}:${indexerSchema}`,
} as const;
