import type { Task } from "graphile-worker";
import { type Address, getAddress, type Hex } from "viem";
import { z } from "zod";
import { usdcAbi } from "../../abis/usdc.ts";
import { classifyChainError, USDC_BLACKLISTED } from "../../chain/errors.ts";
import type { Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import {
  findLastSweep,
  findSweepDestination,
  insertSweep,
  type SweepRow,
  tryLockSweeps,
  unlockSweeps,
  updateSweep,
} from "../../db/queries/sweeps.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { sweepNonce } from "../../domain/sweepNonce.ts";
import {
  transferAuthorizationTypedData,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import { DEPOSIT_ACCOUNT, deriveAccount } from "../../keys/hdWallet.ts";
import type { WorkerDeps } from "../deps.ts";
import { amountToSweep } from "../sweepDecision.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ address: z.string().regex(/^0x[0-9a-f]{40}$/) });

/** A sweep that can never succeed (the destination is blacklisted by USDC, say). */
class PermanentSweepFailure extends Error {}

/**
 * Moves a deposit address's settled USDC to the merchant's wallet (the byo address or
 * the managed wallet): the deposit key signs an EIP-3009 transferWithAuthorization whose
 * nonce is derived from the address and the sweep's sequence number, and the relayer submits
 * it and pays the gas. A retried, duplicated or concurrent job signs the same authorization,
 * which USDC executes once; a session advisory lock keeps two runs from even trying at once.
 * A sweep that can never succeed is marked failed and surfaced, not retried; any other
 * failure (no ETH for gas, an RPC error) is retried with graphile-worker's backoff.
 */
export function sweepDeposit(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed || !deps.sweep) return;
    const sweep = deps.sweep;
    const deposit = getAddress(parsed.address);
    await deps.db.connection().execute(async (connection) => {
      // Another run is sweeping this address right now.
      if (!(await tryLockSweeps(connection, parsed.address))) return;
      try {
        const destination = await findSweepDestination(connection, parsed.address);
        const index = await findDerivationIndex(connection, parsed.address);
        if (!destination || index === undefined) return;
        const signer = deriveAccount(sweep.mnemonic, DEPOSIT_ACCOUNT, index);

        const submit = async (row: SweepRow): Promise<void> => {
          const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);
          const message = {
            from: deposit,
            to: getAddress(row.destination),
            value: row.amount,
            validAfter: 0n,
            validBefore,
            nonce: row.nonce as Hex,
          };
          const signature = await signer.signTypedData(transferAuthorizationTypedData(message));
          const args = transferWithAuthorizationArgs(message, signature);
          try {
            await sweep.chain.simulateContract({
              account: sweep.relayer,
              address: USDC_ADDRESS,
              abi: usdcAbi,
              functionName: "transferWithAuthorization",
              args,
            });
          } catch (error) {
            // USDC's own revert reason is the verdict: a blacklisted address stays blacklisted.
            const failure = classifyChainError(error);
            if (failure.kind === "reverted" && failure.reason === USDC_BLACKLISTED)
              throw new PermanentSweepFailure(`USDC refuses the transfer: ${failure.reason}`, {
                cause: error,
              });
            throw error;
          }
          const hash = await sweep.wallet.writeContract({
            account: sweep.relayer,
            chain: null,
            address: USDC_ADDRESS,
            abi: usdcAbi,
            functionName: "transferWithAuthorization",
            args,
          });
          await updateSweep(connection, row.id, {
            status: "submitted",
            tx_hash: hash,
            attempt: true,
            error: null,
          });
          const receipt = await sweep.chain.waitForTransactionReceipt({
            hash,
            timeout: 60_000,
            pollingInterval: 250,
          });
          if (receipt.status !== "success") throw new Error(`sweep transaction ${hash} reverted`);
          await updateSweep(connection, row.id, { status: "confirmed" });
          helpers.logger.info(
            `swept ${row.amount} USDC units from ${deposit} to ${row.destination} in ${hash}`,
          );
        };

        // At most a few rounds: a payment that lands while sweeping is swept in the next one.
        for (let round = 0; round < 3; round++) {
          const last = await findLastSweep(connection, parsed.address);
          if (last?.status === "failed") return; // surfaced; needs a person
          if (last && last.status !== "confirmed") {
            const used = await sweep.chain.readContract({
              address: USDC_ADDRESS,
              abi: usdcAbi,
              functionName: "authorizationState",
              args: [deposit, last.nonce as Hex],
            });
            if (used) await updateSweep(connection, last.id, { status: "confirmed" });
            else await runRecorded(connection, last, submit);
            continue;
          }
          const balance = await sweep.chain.readContract({
            address: USDC_ADDRESS,
            abi: usdcAbi,
            functionName: "balanceOf",
            args: [deposit],
          });
          // How much is the sweep policy's (domain/sweepPolicy.ts): what is settled, never
          // a partial payment the payer may still be completing, nor held excess or dust.
          const amount = await amountToSweep(connection, parsed.address, deps.sweepPolicy, balance);
          if (amount === 0n) return;
          const sequence = (last?.sequence ?? 0) + 1;
          const row = await insertSweep(connection, {
            deposit_address: parsed.address,
            sequence,
            nonce: sweepNonce(deposit, sequence),
            destination,
            amount,
          });
          await runRecorded(connection, row, submit);
        }
      } finally {
        await unlockSweeps(connection, parsed.address);
      }
    });
  };
}

/** Runs a submission, recording its failure on the sweep row before the job retries. */
async function runRecorded(
  db: Executor,
  row: SweepRow,
  submit: (row: SweepRow) => Promise<void>,
): Promise<void> {
  try {
    await submit(row);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    if (error instanceof PermanentSweepFailure) {
      await updateSweep(db, row.id, { status: "failed", error: message, attempt: true });
      return;
    }
    const explained =
      classifyChainError(error).kind === "insufficient_funds"
        ? `the relayer has too little ETH for gas: ${message}`
        : message;
    await updateSweep(db, row.id, { error: explained.slice(0, 2000), attempt: true });
    throw error;
  }
}

export type { Address };
