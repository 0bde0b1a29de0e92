import { getAddress, type Hash } from "viem";
import { isTransactionMined, type TransactionLookup } from "../../chain/transactionMined.ts";
import type { Db, Executor } from "../../db/database.ts";
import { indexedHead, indexedTransfersTo } from "../../db/queries/indexer.ts";
import { queueSweep } from "../../db/queries/jobs.ts";
import {
  clearTransfersMissing,
  loadPaymentState,
  loadReconcileMemory,
  markTransfersMissing,
  savePaymentState,
} from "../../db/queries/paymentEvents.ts";
import { saveCountedPayments } from "../../db/queries/paymentLists.ts";
import { queueReconcileCatchUp } from "../../db/queries/reconcileCatchUp.ts";
import {
  findLostTransfers,
  LOST_TRANSFER_WAIT_MS,
  lostWaitIsOver,
} from "../../domain/lostTransfers.ts";
import { formatUsdc } from "../../domain/money.ts";
import { receivedInCurrencyForStatus } from "../../domain/moneyRules.ts";
import {
  amountForStatus,
  confirmedTransfers,
  derivePaymentState,
  type IndexedTransfer,
  orderedPayments,
  type PaymentEventType,
  paymentEventType,
} from "../../domain/paymentState.ts";
import type { SweepSettings } from "../../domain/sweepPolicy.ts";
import { recordEvent } from "../events/recordEvent.ts";
import type { JobLog } from "../jobLog.ts";
import { decideSweepOf } from "../sweeps/sweepDecision.ts";
import { convertOwnerPayments, type FeedReader } from "./convertOwnerPayments.ts";
import { findOwner, type Owner, type OwnerStatus } from "./depositOwner.ts";

/** What a reconcile needs from the worker's process. */
export type ReconcileDeps = {
  db: Db;
  /** Ponder's schema for this build: the transfers and the indexed head are read there. */
  indexerSchema: string;
  /** The chain, read-only: to confirm that a transfer the index lost is really gone. */
  chain: TransactionLookup;
  /**
   * The price feeds a currency-priced owner's payments are converted at, read through a reader
   * that batches (chain/priceFeeds.ts createFeedReader): the reconcile's transaction waits for
   * one round trip per payment converted, not four.
   */
  feeds: FeedReader;
  confirmations: number;
  /** EXCESS_DUST_THRESHOLD in base units: dust held after an exact payment, notices coalesced. */
  dustThreshold: bigint;
  /**
   * The sweep policy when counted payments are swept automatically (a relayer and SWEEP=on);
   * none: nothing is queued for a sweep here.
   */
  autoSweep?: SweepSettings;
};

/**
 * Recomputes what a deposit address has received from every transfer currently indexed to it
 * (payments are derived, never counted by hand) and records only the difference: the owner's
 * status, and an event — with the merchant's email and the webhook — when the change is worth
 * telling (dust is coalesced: paymentEventType's NoticeRule). Replays, restarts and reorgs
 * therefore neither double-count nor lose a payment, and running it twice does nothing the
 * second time. The owner's row is locked, so concurrent runs for one address serialise. Then
 * it asks the sweep policy whether, or when, to sweep the address. `recheck`: a transfer waits
 * for its confirmations or for the indexer, and the caller looks again soon.
 *
 * An owner priced in a currency (EUR, GBP, USD) is judged on its payments converted to that
 * currency (convertOwnerPayments: each once, at the quote it paid or its block's rate), and its
 * events tell amounts in it. `waitingForRate`: a payment waits for a usable rate (a stale feed,
 * the sequencer down), and the caller looks again later.
 */
export async function reconcileDeposit(
  deps: ReconcileDeps,
  address: string,
  log: JobLog,
): Promise<{ recheck: boolean; waitingForRate: boolean }> {
  return deps.db.transaction().execute(async (trx) => {
    const owner = await findOwner(trx, address);
    if (!owner) return { recheck: false, waitingForRate: false };
    const [head, transfers, previous, memory] = await Promise.all([
      indexedHead(trx, deps.indexerSchema),
      indexedTransfersTo(trx, deps.indexerSchema, address),
      loadPaymentState(trx, address),
      loadReconcileMemory(trx, address),
    ]);
    const confirmed = confirmedTransfers(transfers, head, deps.confirmations);
    const next = derivePaymentState(address, confirmed);
    const conversion = await convertedReceived(trx, deps, owner, address, confirmed, head);
    // Transfers still waiting for their confirmations: look again soon.
    const waiting = transfers.length > confirmed.length;
    const outcome = (recheck: boolean) => ({
      recheck,
      waitingForRate: conversion?.waiting ?? false,
    });
    // What was received before and now, in the owner's unit (USDC, or its currency).
    const receivedBefore = conversion ? (memory.receivedInCurrency ?? 0n) : previous.received;
    const received = conversion ? conversion.received : next.received;
    if (
      next.received === previous.received &&
      next.counted.join() === previous.counted.join() &&
      received === receivedBefore
    ) {
      // What went missing is back as it was: the next loss starts a wait of its own.
      if (memory.lostSince) await clearTransfersMissing(trx, address);
      return outcome(waiting);
    }
    // A counted transfer missing from the index is either re-mined (the same transaction at
    // another log index or in another block: counted where it is now), reorged out, or being
    // replayed by the indexer (after a restart it deletes and re-inserts its last blocks). For
    // a missing one the chain decides: while its transaction is still mined, nothing is
    // reversed and we look again soon — for LOST_TRANSFER_WAIT_MS at most, after which the
    // index is believed, so later payments are never held up for long. A chain that cannot be
    // asked throws: the job fails, nothing is recorded, and graphile-worker retries it.
    const lost = findLostTransfers(previous.counted, transfers, next.counted);
    if (
      lost.unconfirmed.length ||
      (lost.missing.length && (await anyStillMined(deps, lost.missing)))
    ) {
      const now = new Date();
      const since = await markTransfersMissing(trx, address, now);
      if (!lostWaitIsOver(since, now)) return outcome(true);
      log.warn(
        `${owner.label} (${getAddress(address)}): transfers ${[...lost.missing, ...lost.unconfirmed].join(", ")} are mined but not back in the index after ${LOST_TRANSFER_WAIT_MS / 1000} s; counting what the index holds`,
      );
    }
    const payments = orderedPayments(address, confirmed).map((t) => t.value);
    const status = owner.statusFor(
      conversion
        ? receivedInCurrencyForStatus(owner.amount, conversion.received)
        : amountForStatus(owner.amount, payments, deps.dustThreshold),
    );
    const type = voidInvoiceEvent(
      owner.status,
      paymentEventType(
        { ...previous, received: receivedBefore },
        { ...next, received },
        status,
        owner.kind,
        {
          previousStatus: owner.status,
          notifiedReceived: memory.notifiedReceived,
          dustThreshold: deps.dustThreshold,
        },
      ),
    );
    await savePaymentState(
      trx,
      owner.owner,
      address,
      next,
      type ? received : undefined,
      conversion?.received ?? null,
    );
    // The counted transfers as rows of their own, for GET /api/payments and the exports.
    await saveCountedPayments(
      trx,
      { merchantId: owner.merchantId, ...owner.owner },
      address,
      orderedPayments(address, confirmed),
    );
    if (status !== owner.status) await owner.saveStatus(trx, status);
    // Sweep now what is settled, or look again when a partial payment has been quiet long
    // enough (the sweep job asks the policy again, with the balance, before moving anything).
    // Decided and queued under the owner's lock, so the run that saw the latest payments
    // is the one whose sweep stands.
    if (deps.autoSweep) {
      const decision = await decideSweepOf(trx, address, deps.autoSweep);
      if (decision.sweep) await queueSweep(trx, address);
      else if (decision.retryAt) await queueSweep(trx, address, decision.retryAt);
    }
    const receivedOfAmount = `received ${formatUsdc(received)} of ${formatUsdc(owner.amount)} ${owner.currency}`;
    if (!type) {
      log.info(
        received === receivedBefore
          ? `${owner.label} (${getAddress(address)}): the same payments, re-mined (${lost.remined.join(", ")}), counted where they are now`
          : `${owner.label} (${getAddress(address)}): ${receivedOfAmount}, ${status}; dust, told with the next event`,
      );
      return outcome(waiting);
    }
    const id = crypto.randomUUID();
    // One moment for the event: in its payload, its row and its delivery log alike.
    const createdAt = new Date();
    // A reversal names the transaction that disappeared; a payment the latest counted one.
    const removed = [...lost.missing, ...lost.unconfirmed, ...lost.remined][0]?.split("-")[0];
    const txHash = type.endsWith("payment_reversed")
      ? (removed ?? previous.latestTxHash)
      : next.latestTxHash;
    const body = owner.payload({ id, type, createdAt, status, state: next, received, txHash });
    await recordEvent(
      trx,
      {
        owner: owner.owner,
        status,
        paidAmount: received,
        txHash,
        paidAt: next.latestPaidAt,
        merchantEmail: owner.merchantEmail,
        webhookUrl: owner.webhookUrl,
      },
      body,
    );
    log.info(`${owner.label} (${getAddress(address)}): ${type}, ${receivedOfAmount}`);
    return outcome(waiting);
  });
}

/**
 * For an owner priced in a currency: what its counted payments are worth in it (the converted
 * ones summed) and whether any waits for a usable rate; null for one priced in USDC.
 */
async function convertedReceived(
  trx: Executor,
  deps: ReconcileDeps,
  owner: Owner,
  address: string,
  confirmed: readonly IndexedTransfer[],
  head: bigint | null,
): Promise<{ received: bigint; waiting: boolean } | null> {
  if (owner.currency === "USDC") return null;
  const { converted, waiting } = await convertOwnerPayments(
    trx,
    deps.feeds,
    { depositAddress: address, currency: owner.currency },
    orderedPayments(address, confirmed),
    head ?? 0n,
  );
  return {
    received: converted.reduce((sum, payment) => sum + payment.amount, 0n),
    waiting: waiting.length > 0,
  };
}

/**
 * The event of a change on a void invoice: more received is an `invoice.unexpected_payment`
 * (the status stays `void`, the money is held for refund: the sweep policy never sweeps a void
 * invoice); a reversal is told as one. Any other owner's event is left as it is.
 */
function voidInvoiceEvent(
  status: OwnerStatus,
  type: PaymentEventType | null,
): PaymentEventType | null {
  if (status !== "void" || type === null || type === "invoice.payment_reversed") return type;
  return "invoice.unexpected_payment";
}

/**
 * Whether any of these transfers' transactions is still in the canonical chain; false only on
 * the node's word for each (isTransactionMined throws when it cannot be asked).
 */
async function anyStillMined(deps: ReconcileDeps, transferIds: string[]): Promise<boolean> {
  for (const id of transferIds) {
    const hash = id.split("-")[0] as Hash;
    if (await isTransactionMined(deps.chain, hash)) return true;
  }
  return false;
}

/**
 * The start-up catch-up (the `reconcile_all` job, its name kept): queues at catch-up priority
 * a reconcile of each address whose transfers were indexed since the last catch-up or whose
 * stored payment state disagrees with the index (queueReconcileCatchUp), not one per address
 * of the whole history.
 */
export async function catchUpReconciles(
  deps: Pick<ReconcileDeps, "db" | "indexerSchema">,
  log: JobLog,
): Promise<void> {
  const caughtUp = await queueReconcileCatchUp(deps.db, deps.indexerSchema);
  log.info(
    `start-up catch-up: ${caughtUp.queued} deposit addresses to reconcile (transfers above block ${caughtUp.from ?? "none"} up to ${caughtUp.to ?? "none"}, or state unlike the index)`,
  );
}
