import type { Task } from "graphile-worker";
import { encodeFunctionData, getAddress, type Hex } from "viem";
import { z } from "zod";
import { usdcAbi } from "../../abis/usdc.ts";
import { classifyChainError, summarizeChainError } from "../../chain/errors.ts";
import {
  findPayerAuthorization,
  type PayerAuthorizationRow,
  updatePayerAuthorization,
} from "../../db/queries/payerAuthorizations.ts";
import { merchantOfDepositAddress } from "../../db/queries/relayerGas.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import {
  type TransferAuthorization,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import type { WorkerDeps } from "../deps.ts";
import { checkRelayed } from "../relayer/check.ts";
import { submitRelayed } from "../relayer/submit.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ id: z.uuid() });

/** Seconds an authorization must still be valid for the relayer to send it at all. */
const SEND_MARGIN_SECONDS = 5n;

/** How soon a submitted payment's transaction is looked at again while it is pending. */
const CHECK_MS = 1_000;

/** The relayer transaction of a payer's authorization (app.relayer_transactions.purpose). */
const relayPurpose = (id: string) => `relay:${id}`;

type Sweeping = NonNullable<WorkerDeps["sweep"]>;

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
 * migration 0015 queues this job), through the relayer's one submission path
 * (worker/relayer/submit.ts: its nonce sequence, submit-then-check), then looks at the
 * transaction once a second without holding a slot in between, and records the outcome and
 * the gas it used. Idempotent: the row moves only forward (pending → submitted → mined), the
 * relayer transaction is keyed by the authorization's id, and USDC executes an authorization
 * once. Before sending it asks the chain again: a nonce used meanwhile, an authorization past
 * its validBefore or a call that would now revert (the payer moved their USDC) is recorded and
 * never sent, so no gas is spent on it.
 */
export function relayAuthorization(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed) return;
    const row = await findPayerAuthorization(deps.db, parsed.id);
    if (!row) return;
    const sweeping = deps.sweep;
    if (!sweeping) {
      await updatePayerAuthorization(deps.db, row.id, ["pending"], {
        status: "failed",
        error: "this service has no relayer",
      });
      return;
    }
    if (row.status === "pending" || row.status === "sending") {
      const hash = await send(sweeping, row);
      if (!hash) return;
      helpers.logger.info(`relayed ${row.value} USDC units from ${row.payer} in ${hash}`);
    } else if (row.status !== "submitted") return;

    const relayed = await findRelayedByPurpose(deps.db, relayPurpose(row.id));
    if (!relayed) return;
    const outcome = await checkRelayed(sweeping.relayer, relayed);
    if (outcome.state === "pending") {
      await helpers.addJob(
        TASK.relayAuthorization,
        { id: row.id },
        { jobKey: jobKey.relay(row.id), runAt: new Date(Date.now() + CHECK_MS) },
      );
      return;
    }
    if (outcome.state === "mined") {
      const receipt = await sweeping.relayer.chain.getTransactionReceipt({ hash: outcome.hash });
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
    const used = await authorizationUsed(sweeping, row);
    await updatePayerAuthorization(
      deps.db,
      row.id,
      ["submitted"],
      used
        ? { status: "mined", error: "executed by another transaction" }
        : { status: "failed", error: "the relayer's transaction was replaced; nothing was paid" },
    );
  };

  /** Checks, simulates and submits; the row is `submitted` with its hash in the same commit. */
  async function send(sweeping: Sweeping, row: PayerAuthorizationRow): Promise<Hex | null> {
    const { id } = row;
    const message = messageOf(row);
    const args = transferWithAuthorizationArgs(message, row.signature as Hex);
    if (await authorizationUsed(sweeping, row)) {
      await updatePayerAuthorization(deps.db, id, [row.status], {
        status: "failed",
        error: "USDC has already used this authorization's nonce",
      });
      return null;
    }
    if (row.valid_before <= BigInt(Math.floor(Date.now() / 1000)) + SEND_MARGIN_SECONDS) {
      await updatePayerAuthorization(deps.db, id, ["pending", "sending"], { status: "expired" });
      return null;
    }
    try {
      await sweeping.chain.simulateContract({
        account: sweeping.relayer.account,
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transferWithAuthorization",
        args,
      });
    } catch (error) {
      const failure = classifyChainError(error);
      if (failure.kind !== "reverted") throw error;
      await updatePayerAuthorization(deps.db, id, ["pending", "sending"], {
        status: "failed",
        error: `USDC refuses the transfer: ${failure.reason ?? failure.errorName ?? summarizeChainError(error)}`,
      });
      return null;
    }
    const data = encodeFunctionData({
      abi: usdcAbi,
      functionName: "transferWithAuthorization",
      args,
    });
    // Its gas was reserved against the budgets when the API accepted it; recorded as the merchant's.
    const merchantId = await merchantOfDepositAddress(deps.db, row.deposit_address);
    const relayed = await submitRelayed(
      sweeping.relayer,
      {
        purpose: relayPurpose(id),
        to: USDC_ADDRESS,
        data,
        ...(merchantId ? { merchantId } : {}),
      },
      async (trx, submitted) => {
        await updatePayerAuthorization(trx, id, ["pending", "sending"], {
          status: "submitted",
          tx_hash: submitted.hashes[0] ?? null,
        });
      },
    );
    return (relayed.hashes[0] as Hex | undefined) ?? null;
  }
}

/** Whether USDC has used the payer's authorization nonce. */
function authorizationUsed(sweeping: Sweeping, row: PayerAuthorizationRow): Promise<boolean> {
  return sweeping.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "authorizationState",
    args: [getAddress(row.payer), row.nonce as Hex],
  });
}
