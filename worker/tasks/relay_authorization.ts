import type { Task } from "graphile-worker";
import { getAddress, type Hex, WaitForTransactionReceiptTimeoutError } from "viem";
import { z } from "zod";
import { usdcAbi } from "../../abis/usdc.ts";
import { classifyChainError, summarizeChainError } from "../../chain/errors.ts";
import {
  findPayerAuthorization,
  type PayerAuthorizationRow,
  updatePayerAuthorization,
} from "../../db/queries/payerAuthorizations.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import {
  type TransferAuthorization,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import type { WorkerDeps } from "../deps.ts";
import { type Relayer, submitRelayed } from "../submitRelayed.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ id: z.uuid() });

/** Seconds an authorization must still be valid for the relayer to send it at all. */
const SEND_MARGIN_SECONDS = 5n;

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
 * migration 0015 queues this job), then records the receipt and the gas it used. Idempotent:
 * it moves the row only forward (pending → sending → submitted → mined), and USDC executes an
 * authorization once. Before sending it asks the chain again: a nonce used meanwhile, an
 * authorization past its validBefore or a call that would now revert (the payer moved their
 * USDC) is recorded and never sent, so no gas is spent on it.
 */
export function relayAuthorization(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed) return;
    let row = await findPayerAuthorization(deps.db, parsed.id);
    if (!row) return;
    const id = row.id;
    const relayer = deps.sweep;
    if (!relayer) {
      await updatePayerAuthorization(deps.db, id, ["pending"], {
        status: "failed",
        error: "this service has no relayer",
      });
      return;
    }
    const message = messageOf(row);
    const args = transferWithAuthorizationArgs(message, row.signature as Hex);

    if (row.status === "pending" || row.status === "sending") {
      const hash = await send(relayer, row, args);
      if (!hash) return;
      helpers.logger.info(`relayed ${row.value} USDC units from ${message.from} in ${hash}`);
      row = { ...row, status: "submitted", tx_hash: hash };
    }
    if (row.status === "submitted" && row.tx_hash) await settle(relayer, row, message);
  };

  async function send(
    relayer: Relayer,
    row: PayerAuthorizationRow,
    args: ReturnType<typeof transferWithAuthorizationArgs>,
  ): Promise<Hex | null> {
    const { id } = row;
    const used = await relayer.chain.readContract({
      address: USDC_ADDRESS,
      abi: usdcAbi,
      functionName: "authorizationState",
      args: [getAddress(row.payer), row.nonce as Hex],
    });
    if (used) {
      // `sending`: an earlier run sent it and stopped before recording the hash.
      await updatePayerAuthorization(
        deps.db,
        id,
        [row.status],
        row.status === "sending"
          ? { status: "mined", error: "sent by an earlier attempt; its hash was not recorded" }
          : { status: "failed", error: "USDC has already used this authorization's nonce" },
      );
      return null;
    }
    if (row.valid_before <= BigInt(Math.floor(Date.now() / 1000)) + SEND_MARGIN_SECONDS) {
      await updatePayerAuthorization(deps.db, id, ["pending", "sending"], { status: "expired" });
      return null;
    }
    try {
      await relayer.chain.simulateContract({
        account: relayer.relayer,
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
    if (
      !(await updatePayerAuthorization(deps.db, id, ["pending", "sending"], { status: "sending" }))
    )
      return null;
    const hash = await submitRelayed(relayer, args);
    await updatePayerAuthorization(deps.db, id, ["sending"], {
      status: "submitted",
      tx_hash: hash,
    });
    return hash;
  }

  /** Waits for the receipt and records the outcome and the gas it cost. */
  async function settle(
    relayer: Relayer,
    row: PayerAuthorizationRow,
    message: TransferAuthorization,
  ): Promise<void> {
    try {
      const receipt = await relayer.chain.waitForTransactionReceipt({
        hash: row.tx_hash as Hex,
        timeout: 120_000,
        pollingInterval: 250,
      });
      await updatePayerAuthorization(
        deps.db,
        row.id,
        ["submitted"],
        receipt.status === "success"
          ? { status: "mined", gas_used: receipt.gasUsed }
          : { status: "failed", gas_used: receipt.gasUsed, error: "the transaction reverted" },
      );
    } catch (error) {
      // Never mined (dropped) and no longer valid: it can never execute now.
      const lapsed = message.validBefore <= BigInt(Math.floor(Date.now() / 1000));
      if (error instanceof WaitForTransactionReceiptTimeoutError && lapsed) {
        await updatePayerAuthorization(deps.db, row.id, ["submitted"], {
          status: "expired",
          error: "the transaction was never mined",
        });
        return;
      }
      throw error;
    }
  }
}
