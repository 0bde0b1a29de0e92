import type { Transaction } from "kysely";
import { getAddress, type Hash, type Hex } from "viem";
import type { Database, Db } from "../../db/database.ts";
import { indexedTransfersFrom } from "../../db/queries/indexer.ts";
import { findInvoice } from "../../db/queries/invoices.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import {
  findLinkById,
  findRefund,
  queueRefundEmail,
  type RefundRow,
  refundedAmountOf,
  updateRefund,
} from "../../db/queries/refunds.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { PaymentEvent } from "../events/paymentEvent.ts";
import { recordEvent } from "../events/recordEvent.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";
import { failRefund, REFUND_CHECK_MS, refundPurpose } from "./execution.ts";

/** What following a refund needs from the worker's process. */
export type CheckRefundDeps = {
  db: Db;
  /** Ponder's schema for this build: a deposit's refund is confirmed once its transfer is indexed. */
  indexerSchema: string;
  relay: Pick<Relay, "checkRelayed" | "authorizationUsed">;
  /** Queues this check again (check_refund), or the refund's submission (submit_refund). */
  addJob: AddJob;
  log: JobLog;
};

/** Submissions of one refund before one that keeps failing on chain is given up. */
const MAX_SUBMISSIONS = 5;

/**
 * One look at a submitted refund, never a wait. Its transaction mined and succeeded → the
 * refund is confirmed once the indexer has its transfer out of the deposit address (a managed
 * wallet's transfers are not indexed: there, the receipt confirms it); still pending → look
 * again in a second (the relayer re-sends it at a higher fee when it lingers); reverted or its
 * relayer nonce taken → confirmed if USDC used the authorization anyway (an earlier submission
 * was executed), else handed back to submit_refund under a new relayer nonce and the same
 * authorization nonce: paid once at most, whatever happens. A confirmed refund records
 * `invoice.refunded` / `link.refunded` (the webhook) and emails the merchant and the vendor.
 */
export async function checkRefund(deps: CheckRefundDeps, refundId: string): Promise<void> {
  const { relay } = deps;
  const refund = await findRefund(deps.db, refundId);
  if (refund?.status !== "submitted") return;
  const again = async () => {
    await deps.addJob(
      TASK.checkRefund,
      { refund_id: refund.id },
      { jobKey: jobKey.refundCheck(refund.id), runAt: new Date(Date.now() + REFUND_CHECK_MS) },
    );
  };
  const relayed = await findRelayedByPurpose(deps.db, refundPurpose(refund.id, refund.attempts));
  const outcome = relayed ? await relay.checkRelayed(relayed) : undefined;
  if (outcome?.state === "pending") return again();
  let hash: Hash | null = outcome?.state === "mined" && outcome.success ? outcome.hash : null;
  if (
    !hash &&
    (await relay.authorizationUsed(getAddress(refund.from_address), refund.nonce as Hex))
  )
    hash = await executedSubmission(deps, refund);
  else if (!hash) {
    const why =
      outcome?.state === "mined"
        ? `transaction ${outcome.hash} reverted`
        : "its relayer nonce was used by another transaction";
    if (refund.attempts >= MAX_SUBMISSIONS) {
      await failRefund(
        deps.db,
        refund,
        `submitted ${refund.attempts} times, never executed: ${why}`,
      );
      return;
    }
    deps.log.warn(`refund ${refund.id}: ${why}; submitting it again`);
    await updateRefund(
      deps.db,
      refund.id,
      { status: "requested", error: `${why}; submitting again` },
      ["submitted"],
    );
    await deps.addJob(
      TASK.submitRefund,
      { refund_id: refund.id },
      { jobKey: jobKey.refund(refund.id) },
    );
    return;
  }
  if (refund.source === "deposit" && !(await indexed(deps, refund, hash))) {
    // Executed on chain; confirmed when the indexer has it (the ledger auditors read).
    if (hash && hash !== refund.tx_hash)
      await updateRefund(deps.db, refund.id, { tx_hash: hash }, ["submitted"]);
    return again();
  }
  const confirmed = await deps.db.transaction().execute((trx) => confirmRefund(trx, refund, hash));
  if (confirmed)
    deps.log.info(
      `refund ${refund.id} confirmed: ${refund.amount} USDC units to ${refund.to_address} in ${hash}`,
    );
}

/**
 * Whether the indexer has the refund's transfer out: by its hash; else (no submission known to
 * have executed) a transfer out of its address of its amount to its recipient — never merely one
 * of its amount, which a sweep or another refund of the same size would match.
 */
async function indexed(
  deps: CheckRefundDeps,
  refund: RefundRow,
  hash: Hash | null,
): Promise<boolean> {
  const out = await indexedTransfersFrom(deps.db, deps.indexerSchema, refund.from_address);
  return out.some((t) =>
    hash
      ? t.txHash === hash
      : t.value === refund.amount &&
        t.to !== undefined &&
        t.to.toLowerCase() === refund.to_address?.toLowerCase(),
  );
}

/** The hash of the submission USDC executed, when the current one was not it. */
async function executedSubmission(deps: CheckRefundDeps, refund: RefundRow): Promise<Hash | null> {
  for (let n = refund.attempts; n >= 1; n--) {
    const row = await findRelayedByPurpose(deps.db, refundPurpose(refund.id, n));
    const outcome = row ? await deps.relay.checkRelayed(row) : undefined;
    if (outcome?.state === "mined" && outcome.success) return outcome.hash;
  }
  return null;
}

/**
 * Marks the refund confirmed and, once (the status moves only from `submitted`), records its
 * event (the webhook) and queues the merchant's and the vendor's emails.
 */
async function confirmRefund(
  trx: Transaction<Database>,
  refund: RefundRow,
  hash: Hash | null,
): Promise<boolean> {
  const row = await updateRefund(
    trx,
    refund.id,
    { status: "confirmed", error: null, ...(hash ? { tx_hash: hash } : {}) },
    ["submitted"],
  );
  if (!row) return false;
  const id = crypto.randomUUID();
  const createdAt = new Date();
  const refunded = await refundedAmountOf(
    trx,
    row.invoice_id ? { invoiceId: row.invoice_id } : { linkId: row.link_id as string },
  );
  const common = {
    event_id: id,
    created_at: createdAt.toISOString(),
    refund_id: row.id,
    amount: formatUsdc(row.amount),
    to: row.to_address ? getAddress(row.to_address) : null,
    tx_hash: row.tx_hash,
    refunded_amount: formatUsdc(refunded),
  };
  if (row.invoice_id) {
    const invoice = await findInvoice(trx, row.invoice_id);
    if (!invoice) return true;
    const state = await loadPaymentState(trx, invoice.deposit_address);
    const payload: PaymentEvent = {
      type: "invoice.refunded",
      ...common,
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      status: invoice.status,
      paid_amount: formatUsdc(state.received),
      metadata: invoice.metadata,
    };
    await recordEvent(
      trx,
      {
        owner: { invoiceId: invoice.id },
        status: invoice.status,
        paidAmount: state.received,
        txHash: row.tx_hash,
        paidAt: null,
        merchantEmail: null,
        webhookUrl: invoice.webhook_url,
      },
      payload,
    );
    for (const recipient of [invoice.merchant_email, invoice.vendor_email])
      await queueRefundEmail(trx, {
        kind: "refund_confirmed",
        recipient,
        invoiceId: invoice.id,
        refundId: row.id,
        eventId: id,
      });
    return true;
  }
  const link = row.link_id ? await findLinkById(trx, row.link_id) : undefined;
  if (!link) return true;
  const state = await loadPaymentState(trx, link.deposit_address);
  const payload: PaymentEvent = {
    type: "link.refunded",
    ...common,
    slug: link.slug,
    status: link.status,
    amount_usdc: formatUsdc(state.received),
    metadata: link.metadata,
  };
  await recordEvent(
    trx,
    {
      owner: { linkId: link.id },
      status: link.status,
      paidAmount: state.received,
      txHash: row.tx_hash,
      paidAt: null,
      merchantEmail: null,
      webhookUrl: link.webhook_url,
    },
    payload,
  );
  await queueRefundEmail(trx, {
    kind: "refund_confirmed",
    recipient: link.merchant_email,
    invoiceId: null,
    refundId: row.id,
    eventId: id,
  });
  return true;
}
