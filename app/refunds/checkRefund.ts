import type { Transaction } from "kysely";
import { getAddress, type Hash } from "viem";
import type { Database } from "../../db/database.ts";
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
import { formatUsdc } from "../../domain/money.ts";
import type { PaymentEvent } from "../events/paymentEvent.ts";
import { type RecordedEventFacts, recordEvent } from "../events/recordEvent.ts";
import { type CheckTransferDeps, executedTransfer } from "../outgoingTransfers/checkTransfer.ts";
import { addTransferJob, checkJob } from "../outgoingTransfers/outgoingTransfer.ts";
import { REFUND } from "./execution.ts";

/** What following a refund needs from the worker's process (check_refund). */
export type CheckRefundDeps = CheckTransferDeps & {
  /** Ponder's schema for this build: a deposit's refund is confirmed once its transfer is indexed. */
  indexerSchema: string;
};

/**
 * One look at a submitted refund, never a wait (app/outgoingTransfers/checkTransfer.ts): once
 * its transfer executed, the refund is confirmed when the indexer has its transfer out of the
 * deposit address (a managed wallet's transfers are not indexed: there, the receipt confirms
 * it), else looked at again in a second. A confirmed refund records
 * `invoice.refunded` / `link.refunded` (the webhook) and emails the merchant and the vendor.
 */
export async function checkRefund(deps: CheckRefundDeps, refundId: string): Promise<void> {
  const refund = await findRefund(deps.db, refundId);
  if (refund?.status !== "submitted") return;
  const executed = await executedTransfer(deps, REFUND, refund);
  if (!executed) return;
  const { hash } = executed;
  if (refund.source === "deposit" && !(await indexed(deps, refund, hash))) {
    // Executed on chain; confirmed when the indexer has it (the ledger auditors read).
    if (hash && hash !== refund.tx_hash)
      await updateRefund(deps.db, refund.id, { tx_hash: hash }, ["submitted"]);
    await addTransferJob(deps.addJob, checkJob(REFUND, refund.id));
    return;
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
    await recordRefunded(trx, row, {
      event: {
        type: "invoice.refunded",
        ...common,
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        status: invoice.status,
        paid_amount: formatUsdc(state.received),
        metadata: invoice.metadata,
      },
      facts: {
        owner: { invoiceId: invoice.id },
        status: invoice.status,
        paidAmount: state.received,
        webhookUrl: invoice.webhook_url,
      },
      recipients: [invoice.merchant_email, invoice.vendor_email],
      invoiceId: invoice.id,
    });
    return true;
  }
  const link = row.link_id ? await findLinkById(trx, row.link_id) : undefined;
  if (!link) return true;
  const state = await loadPaymentState(trx, link.deposit_address);
  await recordRefunded(trx, row, {
    event: {
      type: "link.refunded",
      ...common,
      slug: link.slug,
      status: link.status,
      amount_usdc: formatUsdc(state.received),
      metadata: link.metadata,
    },
    facts: {
      owner: { linkId: link.id },
      status: link.status,
      paidAmount: state.received,
      webhookUrl: link.webhook_url,
    },
    recipients: [link.merchant_email],
    invoiceId: null,
  });
  return true;
}

/**
 * The confirmed refund's event on its invoice or link (the webhook; no payment, so no paid
 * moment and no payment email) and its `refund_confirmed` emails, each naming that event.
 */
async function recordRefunded(
  trx: Transaction<Database>,
  row: RefundRow,
  refunded: {
    event: PaymentEvent;
    facts: Pick<RecordedEventFacts, "owner" | "status" | "paidAmount" | "webhookUrl">;
    recipients: string[];
    invoiceId: string | null;
  },
): Promise<void> {
  await recordEvent(
    trx,
    { ...refunded.facts, txHash: row.tx_hash, paidAt: null, merchantEmail: null },
    refunded.event,
  );
  for (const recipient of refunded.recipients)
    await queueRefundEmail(trx, {
      kind: "refund_confirmed",
      recipient,
      invoiceId: refunded.invoiceId,
      refundId: row.id,
      eventId: refunded.event.event_id,
    });
}
