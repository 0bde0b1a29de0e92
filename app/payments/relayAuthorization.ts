import { getAddress, type Hex, type PublicClient } from "viem";
import type { Db } from "../../db/database.ts";
import {
  findPayerAuthorization,
  type PayerAuthorizationRow,
  updatePayerAuthorization,
} from "../../db/queries/payerAuthorizations.ts";
import { merchantOfDepositAddress } from "../../db/queries/relayerGas.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { TransferAuthorization } from "../../domain/usdcAuthorization.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";

/** The relayer's one procedure, and its chain for the receipt of what it mined. */
type PaymentRelay = Pick<Relay, "move" | "checkRelayed" | "authorizationUsed"> & {
  chain: Pick<PublicClient, "getTransactionReceipt">;
};

/** What relaying a payer's authorization needs from the worker's process. */
export type RelayAuthorizationDeps = {
  db: Db;
  /** Absent without a relayer (the authorization fails). */
  relay: PaymentRelay | undefined;
  /** Queues this job again while its transaction is pending (relay_authorization). */
  addJob: AddJob;
  log: JobLog;
};

/** How soon a submitted payment's transaction is looked at again while it is pending. */
const CHECK_MS = 1_000;

/** The relayer transaction of a payer's authorization (app.relayer_transactions.purpose). */
const relayPurpose = (id: string) => `relay:${id}`;

const messageOf = (row: PayerAuthorizationRow): TransferAuthorization => ({
  from: getAddress(row.payer),
  to: getAddress(row.deposit_address),
  value: row.value,
  validAfter: row.valid_after,
  validBefore: row.valid_before,
  nonce: row.nonce as Hex,
});

/**
 * Submits a payer's authorization the API verified and stored (the insert trigger of
 * migration 0015 queues this job), through the relayer's one procedure for moving money by
 * authorization (worker/relayer/moveByAuthorization.ts: simulate, the one nonce sequence,
 * submit-then-check), then looks at the transaction once a second without holding a slot in
 * between, and records the outcome and the gas it used. Idempotent: the row moves only
 * forward (pending → submitted → mined), the relayer transaction is keyed by the
 * authorization's id, and USDC executes an authorization once. Before sending it asks the
 * chain again: a nonce used meanwhile, an authorization past its validBefore or a call that
 * would now revert (the payer moved their USDC) is recorded and never sent, so no gas is
 * spent on it.
 */
export async function relayAuthorization(deps: RelayAuthorizationDeps, id: string): Promise<void> {
  const row = await findPayerAuthorization(deps.db, id);
  if (!row) return;
  const relay = deps.relay;
  if (!relay) {
    await updatePayerAuthorization(deps.db, row.id, ["pending"], {
      status: "failed",
      error: "this service has no relayer",
    });
    return;
  }
  if (row.status === "pending" || row.status === "sending") {
    const hash = await send(deps, relay, row);
    if (!hash) return;
    deps.log.info(`relayed ${row.value} USDC units from ${row.payer} in ${hash}`);
  } else if (row.status !== "submitted") return;

  const relayed = await findRelayedByPurpose(deps.db, relayPurpose(row.id));
  if (!relayed) return;
  const outcome = await relay.checkRelayed(relayed);
  if (outcome.state === "pending") {
    await deps.addJob(
      TASK.relayAuthorization,
      { id: row.id },
      { jobKey: jobKey.relay(row.id), runAt: new Date(Date.now() + CHECK_MS) },
    );
    return;
  }
  if (outcome.state === "mined") {
    const receipt = await relay.chain.getTransactionReceipt({ hash: outcome.hash });
    await updatePayerAuthorization(
      deps.db,
      row.id,
      ["submitted"],
      outcome.success
        ? { status: "mined", tx_hash: outcome.hash, gas_used: receipt.gasUsed }
        : {
            status: "failed",
            tx_hash: outcome.hash,
            gas_used: receipt.gasUsed,
            error: "the transaction reverted",
          },
    );
    return;
  }
  // Dropped: the relayer's nonce went to another transaction. USDC may still have used the
  // authorization (it is the payer's, anyone may submit it); otherwise it is never sent again.
  const used = await relay.authorizationUsed(getAddress(row.payer), row.nonce as Hex);
  await updatePayerAuthorization(
    deps.db,
    row.id,
    ["submitted"],
    used
      ? { status: "mined", error: "executed by another transaction" }
      : { status: "failed", error: "the relayer's transaction was replaced; nothing was paid" },
  );
}

/** Checks, simulates and submits; the row is `submitted` with its hash in the same commit. */
async function send(
  deps: RelayAuthorizationDeps,
  relay: PaymentRelay,
  row: PayerAuthorizationRow,
): Promise<Hex | null> {
  const { id } = row;
  // Its gas was reserved against the budgets when the API accepted it; recorded as the
  // merchant's.
  const merchantId = await merchantOfDepositAddress(deps.db, row.deposit_address);
  const moved = await relay.move({
    authorization: { message: messageOf(row), signature: row.signature as Hex },
    purpose: relayPurpose(id),
    merchantId,
    record: async (trx, submitted) => {
      await updatePayerAuthorization(trx, id, ["pending", "sending"], {
        status: "submitted",
        tx_hash: submitted.hashes[0] ?? null,
      });
    },
  });
  if (moved.submitted) return (moved.relayed.hashes[0] as Hex | undefined) ?? null;
  // Never sent, so no gas is spent on it: the payer used their nonce themselves (or an
  // earlier submission did), it expired waiting, or USDC would refuse it now.
  if (moved.revert === undefined && moved.refusal === "authorization_used")
    await updatePayerAuthorization(deps.db, id, [row.status], {
      status: "failed",
      error: moved.reason,
    });
  else if (moved.revert === undefined && moved.refusal === "expired")
    await updatePayerAuthorization(deps.db, id, ["pending", "sending"], { status: "expired" });
  else
    await updatePayerAuthorization(deps.db, id, ["pending", "sending"], {
      status: "failed",
      error: `USDC refuses the transfer: ${moved.reason}`,
    });
  return null;
}
