import {
  type Address,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from "viem";
import { usdcAbi } from "../../abis/usdc.ts";
import { classifyChainError, summarizeChainError, usdcRefusalOf } from "../../chain/errors.ts";
import type { Executor } from "../../db/database.ts";
import type { RelayedRow } from "../../db/queries/relayerTransactions.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import {
  type TransferAuthorization,
  transferAuthorizationTypedData,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import type { UsdcRefusal } from "../../domain/usdcRefusal.ts";
import type { Relayer } from "./relayer.ts";
import { submitRelayed } from "./submit.ts";

/** What moving USDC by authorization needs: the relayer, and the chain to read and simulate on. */
export type AuthorizationMover = {
  relayer: Relayer;
  chain: Pick<PublicClient, "readContract" | "simulateContract">;
};

/** An authorization Remit signs is valid from now for this long: time to submit it, no more. */
const SIGNED_VALIDITY_SECONDS = 3600n;

/** Seconds an authorization must still be valid for the relayer to send it at all. */
const SEND_MARGIN_SECONDS = 5n;

/** The transfer to make, signed by Remit here or by the payer already. */
export type Authorization =
  /** Remit signs (a sweep, a refund) with the key of the address the money leaves. */
  | { signer: LocalAccount; from: Address; to: Address; value: bigint; nonce: Hex }
  /** The payer signed it (a relayed payment): sent as it is. */
  | { message: TransferAuthorization; signature: Hex };

export type Move = {
  authorization: Authorization;
  /** The relayer transaction's purpose (app.relayer_transactions): one transaction per purpose. */
  purpose: string;
  /** The merchant whose gas budget its gas counts against. */
  merchantId?: string | null | undefined;
  /**
   * The caller's own state (its row submitted, its check queued), written in the database
   * transaction that takes the relayer's nonce and records the relayer transaction.
   */
  record: (trx: Executor, relayed: RelayedRow) => Promise<void>;
};

export type MoveOutcome =
  | { submitted: true; message: TransferAuthorization; relayed: RelayedRow }
  | {
      submitted: false;
      message: TransferAuthorization;
      refusal: UsdcRefusal;
      /** USDC's revert reason (or the chain's fact) in words, for the caller's error column. */
      reason: string;
      /**
       * The simulation's error when USDC refused the call; undefined when it was refused before
       * any simulation: its nonce already used on chain, or past its validBefore by our clock.
       */
      revert?: unknown;
    };

/**
 * The one procedure by which money leaves through the relayer (sweeps, refunds, payers'
 * gasless payments): sign the EIP-3009 transferWithAuthorization when Remit signs (its nonce
 * is the caller's, deterministic: domain/sweepNonce.ts, domain/refundNonce.ts, so a retried
 * job signs the same authorization and USDC executes it once), ask the chain whether its
 * nonce is used already (the payer may have submitted their own authorization themselves:
 * never race them), refuse one about to expire, simulate it (USDC's revert reason, classified
 * by domain/usdcRefusal.ts, tells the caller what a refusal means), and submit it through the
 * relayer's one nonce sequence (submitRelayed) with `record` in the same database transaction
 * as the relayer transaction and its merchant, which the gas budgets count.
 *
 * Returns the transaction submitted, or USDC's refusal (nothing sent, no gas spent); throws when
 * the chain did not answer, or the relayer cannot pay for the gas (describeMoveFailure says it
 * in words): the caller's job retries.
 */
export async function moveByAuthorization(
  mover: AuthorizationMover,
  move: Move,
): Promise<MoveOutcome> {
  const { message, signature } = await signed(move.authorization);
  const refused = (refusal: UsdcRefusal, reason: string, revert?: unknown): MoveOutcome => ({
    submitted: false,
    message,
    refusal,
    reason,
    ...(revert === undefined ? {} : { revert }),
  });
  if (await authorizationUsed(mover, message.from, message.nonce))
    return refused("authorization_used", "USDC has already used this authorization's nonce");
  if (message.validBefore <= BigInt(Math.floor(Date.now() / 1000)) + SEND_MARGIN_SECONDS)
    return refused("expired", "the authorization has expired");

  const args = transferWithAuthorizationArgs(message, signature);
  try {
    await mover.chain.simulateContract({
      account: mover.relayer.account,
      address: USDC_ADDRESS,
      abi: usdcAbi,
      functionName: "transferWithAuthorization",
      args,
    });
  } catch (error) {
    const usdc = usdcRefusalOf(error);
    if (!usdc) throw error;
    return refused(usdc.refusal, usdc.reason ?? summarizeChainError(error), error);
  }
  const relayed = await submitRelayed(
    mover.relayer,
    {
      purpose: move.purpose,
      to: USDC_ADDRESS,
      data: encodeFunctionData({ abi: usdcAbi, functionName: "transferWithAuthorization", args }),
      ...(move.merchantId ? { merchantId: move.merchantId } : {}),
    },
    move.record,
  );
  return { submitted: true, message, relayed };
}

async function signed(
  authorization: Authorization,
): Promise<{ message: TransferAuthorization; signature: Hex }> {
  if ("signature" in authorization) return authorization;
  const { signer, from, to, value, nonce } = authorization;
  const message: TransferAuthorization = {
    from,
    to,
    value,
    validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000)) + SIGNED_VALIDITY_SECONDS,
    nonce,
  };
  return {
    message,
    signature: await signer.signTypedData(transferAuthorizationTypedData(message)),
  };
}

/** Whether USDC has used (or cancelled) `from`'s authorization `nonce`: its transfer executed. */
export function authorizationUsed(
  mover: Pick<AuthorizationMover, "chain">,
  from: Address,
  nonce: Hex,
): Promise<boolean> {
  return mover.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "authorizationState",
    args: [from, nonce],
  });
}

/** A failed move in one line for the caller's error column: an empty relayer said so. */
export function describeMoveFailure(error: unknown): string {
  const line = summarizeChainError(error).split("\n")[0] ?? "";
  const explained =
    classifyChainError(error).kind === "insufficient_funds"
      ? `the relayer has too little ETH for gas: ${line}`
      : line;
  return explained.slice(0, 2000);
}
