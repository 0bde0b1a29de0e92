import { getAddress, type Hash, type Hex } from "viem";
import type { Db } from "../../db/database.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";
import {
  addTransferJob,
  checkJob,
  failTransfer,
  type OutgoingTransferKind,
  type OutgoingTransferRow,
  submitJob,
  transferPurpose,
} from "./outgoingTransfer.ts";

/** What following a transfer out needs from the worker's process. */
export type CheckTransferDeps = {
  db: Db;
  relay: Pick<Relay, "checkRelayed" | "authorizationUsed">;
  /** Queues the check again, or the transfer's submission. */
  addJob: AddJob;
  log: JobLog;
};

/** Submissions of one transfer before one that keeps failing on chain is given up. */
const MAX_SUBMISSIONS = 5;

/**
 * One look at a submitted transfer's relayed transaction, never a wait. Still pending → look
 * again in a second (the relayer re-sends it at a higher fee when it lingers); mined and
 * succeeded → executed; reverted or its relayer nonce taken → executed if USDC used the
 * authorization anyway (an earlier submission was), else handed back to its submission under a
 * new relayer nonce and the same authorization nonce (paid once at most, whatever happens), or
 * failed after MAX_SUBMISSIONS. Resolves with the executed transaction's hash (null when USDC
 * used the authorization in no submission this service knows), or undefined when not executed.
 */
export async function executedTransfer<Row extends OutgoingTransferRow>(
  deps: CheckTransferDeps,
  kind: OutgoingTransferKind<Row>,
  transfer: Row,
): Promise<{ hash: Hash | null } | undefined> {
  const { relay } = deps;
  const relayed = await findRelayedByPurpose(
    deps.db,
    transferPurpose(kind, transfer.id, transfer.attempts),
  );
  const outcome = relayed ? await relay.checkRelayed(relayed) : undefined;
  if (outcome?.state === "pending") {
    await addTransferJob(deps.addJob, checkJob(kind, transfer.id));
    return undefined;
  }
  if (outcome?.state === "mined" && outcome.success) return { hash: outcome.hash };
  if (await relay.authorizationUsed(getAddress(transfer.from_address), transfer.nonce as Hex))
    return { hash: await executedSubmission(deps, kind, transfer) };
  const why =
    outcome?.state === "mined"
      ? `transaction ${outcome.hash} reverted`
      : "its relayer nonce was used by another transaction";
  if (transfer.attempts >= MAX_SUBMISSIONS) {
    await failTransfer(
      deps.db,
      kind,
      transfer,
      `submitted ${transfer.attempts} times, never executed: ${why}`,
    );
    return undefined;
  }
  deps.log.warn(`${kind.name} ${transfer.id}: ${why}; submitting it again`);
  await kind.update(
    deps.db,
    transfer.id,
    { status: "requested", error: `${why}; submitting again` },
    ["submitted"],
  );
  await addTransferJob(deps.addJob, submitJob(kind, transfer.id, "now"));
  return undefined;
}

/** The hash of the submission USDC executed, when the current one was not it. */
async function executedSubmission<Row extends OutgoingTransferRow>(
  deps: CheckTransferDeps,
  kind: OutgoingTransferKind<Row>,
  transfer: Row,
): Promise<Hash | null> {
  for (let n = transfer.attempts; n >= 1; n--) {
    const row = await findRelayedByPurpose(deps.db, transferPurpose(kind, transfer.id, n));
    const outcome = row ? await deps.relay.checkRelayed(row) : undefined;
    if (outcome?.state === "mined" && outcome.success) return outcome.hash;
  }
  return null;
}
