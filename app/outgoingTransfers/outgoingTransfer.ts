import type { Executor } from "../../db/database.ts";
import { inTransaction } from "../../db/queries/inTransaction.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import type { TransferUpdate } from "../../db/queries/transferProgress.ts";
import type { TaskName } from "../../domain/jobs.ts";
import type { RefundStatus } from "../../domain/statuses.ts";
import type { AddJob } from "../jobQueue.ts";

/**
 * A transfer out of an address this service holds the key of, signed here and relayed: a refund
 * (app/refunds/) or a payout (app/payouts/). Both are one EIP-3009 authorization whose nonce was
 * fixed when it was requested, move `requested → submitted → confirmed | failed`, and are
 * submitted (submitTransfer.ts) and followed (checkTransfer.ts) by the same steps; what tells
 * them apart is this kind.
 */
export type OutgoingTransferRow = {
  id: string;
  merchant_id: string;
  from_address: string;
  /** A refund waiting for its claim link has none yet; a payout always has one. */
  to_address: string | null;
  amount: bigint;
  nonce: string;
  attempts: number;
  status: RefundStatus;
  tx_hash: string | null;
};

/** What tells a refund's execution from a payout's to the steps they share. */
export type OutgoingTransferKind<Row extends OutgoingTransferRow> = {
  /** "refund" or "payout": the relayed transaction's purpose prefix and the logs' noun. */
  name: string;
  submitTask: TaskName;
  checkTask: TaskName;
  /** The payload of both tasks ({ refund_id } or { payout_id }). */
  payload: (id: string) => Record<string, string>;
  submitJobKey: (id: string) => string;
  checkJobKey: (id: string) => string;
  /** db/queries' conditional update of the row (the first of two racing writers wins). */
  update: (
    db: Executor,
    id: string,
    values: TransferUpdate,
    onlyIf: readonly RefundStatus[],
  ) => Promise<Row | undefined>;
  /** Queues the email that tells of the transfer's failure, in the failing transaction. */
  queueFailedEmail: (trx: Executor, row: Row) => Promise<void>;
};

/** How soon a submitted transfer is looked at, and a busy address tried again. */
export const TRANSFER_CHECK_MS = 1_000;

/** The relayed transaction of a transfer's nth submission (app.relayer_transactions.purpose). */
export const transferPurpose = <Row extends OutgoingTransferRow>(
  kind: OutgoingTransferKind<Row>,
  id: string,
  submission: number,
) => `${kind.name}:${id}:${submission}`;

/** A task of the transfer's, queued a moment from now under its job key. */
export type TransferJob = {
  task: TaskName;
  payload: Record<string, string>;
  spec: { jobKey: string; runAt?: Date };
};

/** The transfer's check (check_refund, check_payout) a moment from now. */
export const checkJob = <Row extends OutgoingTransferRow>(
  kind: OutgoingTransferKind<Row>,
  id: string,
): TransferJob => ({
  task: kind.checkTask,
  payload: kind.payload(id),
  spec: { jobKey: kind.checkJobKey(id), runAt: new Date(Date.now() + TRANSFER_CHECK_MS) },
});

/** The transfer's submission (submit_refund, submit_payout): a moment from now, or at once. */
export const submitJob = <Row extends OutgoingTransferRow>(
  kind: OutgoingTransferKind<Row>,
  id: string,
  when: "later" | "now",
): TransferJob => ({
  task: kind.submitTask,
  payload: kind.payload(id),
  spec:
    when === "later"
      ? { jobKey: kind.submitJobKey(id), runAt: new Date(Date.now() + TRANSFER_CHECK_MS) }
      : { jobKey: kind.submitJobKey(id) },
});

/** Queues a transfer job through the worker's helpers (a look again, a submission later). */
export const addTransferJob = (addJob: AddJob, job: TransferJob) =>
  addJob(job.task, job.payload, job.spec);

/** Queues the transfer's check in the caller's transaction. */
export const queueTransferCheck = <Row extends OutgoingTransferRow>(
  db: Executor,
  kind: OutgoingTransferKind<Row>,
  id: string,
) => {
  const job = checkJob(kind, id);
  return queueJob(db, job.task, job.payload, job.spec);
};

/** Marks a transfer failed for good with its reason and queues its email, together. */
export async function failTransfer<Row extends OutgoingTransferRow>(
  db: Executor,
  kind: OutgoingTransferKind<Row>,
  transfer: Row,
  reason: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await kind.update(
      trx,
      transfer.id,
      { status: "failed", error: reason.slice(0, 2000) },
      ["requested", "submitted"],
    );
    if (row) await kind.queueFailedEmail(trx, row);
  });
}
