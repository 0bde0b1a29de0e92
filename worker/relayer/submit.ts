import { type Address, type Hex, InsufficientFundsError, keccak256 } from "viem";
import { classifyBroadcastError, summarizeChainError } from "../../chain/errors.ts";
import type { Executor } from "../../db/database.ts";
import {
  findRelayedByPurpose,
  insertRelayed,
  type RelayedRow,
  takeRelayerNonce,
  updateRelayed,
} from "../../db/queries/relayerTransactions.ts";
import type { Relayer } from "./relayer.ts";

/** A call the relayer is to make and pay the gas of. */
export type RelayRequest = {
  /**
   * Who asks, unique per transaction wanted (`sweep:<id>:<submission>`): asking again under
   * the same purpose returns the transaction already recorded, never a second one.
   */
  purpose: string;
  to: Address;
  data: Hex;
  /** The merchant it is paid for: its gas counts against that merchant's daily budget. */
  merchantId?: string;
};

/** Gas headroom over the estimate: the state may change a little before the block. */
const GAS_HEADROOM_PERCENT = 20n;

/**
 * Submits a call as a transaction of the relayer: the one way Remit relays anything (sweeps
 * today; payers' EIP-3009 authorizations and refunds reuse it). Returns at once, once the
 * transaction is recorded and handed to the node; it does not wait for a block. The caller
 * schedules a check (checkRelayed) that finds it mined, or re-sends it at a higher fee under
 * the same nonce, or finds its nonce used by another transaction.
 *
 * The nonce comes from the relayer's one sequence (app.relayer_nonces): taken, the
 * transaction signed and recorded with its signed bytes in one database transaction, so two
 * submissions in one worker, or in workers on several hosts, never share a nonce, and a crash
 * after the commit leaves bytes the check broadcasts again (a nonce is never left as a gap).
 * `record` runs in that same transaction: the caller writes its own state (the sweep
 * submitted, its check job queued) atomically with the transaction.
 *
 * Throws before taking a nonce when the call cannot be estimated (it would revert: simulate
 * first for a typed reason) or the relayer cannot pay for the gas (InsufficientFundsError).
 */
export async function submitRelayed(
  relayer: Relayer,
  request: RelayRequest,
  record?: (trx: Executor, row: RelayedRow) => Promise<void>,
): Promise<RelayedRow> {
  const existing = await findRelayedByPurpose(relayer.db, request.purpose);
  if (existing) return existing;
  const from = relayer.account.address;
  const [estimate, fees, balance, chainCount] = await Promise.all([
    relayer.chain.estimateGas({ account: from, to: request.to, data: request.data }),
    relayer.chain.estimateFeesPerGas(),
    relayer.chain.getBalance({ address: from }),
    relayer.chain.getTransactionCount({ address: from, blockTag: "pending" }),
  ]);
  const gas = estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n;
  if (balance < gas * fees.maxFeePerGas) throw new InsufficientFundsError();

  const row = await relayer.db.transaction().execute(async (trx) => {
    const nonce = await takeRelayerNonce(trx, from.toLowerCase(), BigInt(chainCount));
    const signed = await signRelayed(relayer, {
      to: request.to,
      data: request.data,
      gas,
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const inserted = await insertRelayed(trx, {
      purpose: request.purpose,
      relayer: from.toLowerCase(),
      nonce,
      to_address: request.to.toLowerCase(),
      data: request.data.toLowerCase(),
      gas,
      max_fee_per_gas: fees.maxFeePerGas.toString(),
      max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
      signed,
      hashes: [keccak256(signed)],
      merchant_id: request.merchantId ?? null,
    });
    await record?.(trx, inserted);
    return inserted;
  });
  await broadcast(relayer, row, row.signed as Hex);
  return row;
}

/** The fields of a relayer transaction that signing needs. */
export type RelayedFields = {
  to: Address;
  data: Hex;
  gas: bigint;
  nonce: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

/** Signs an EIP-1559 transaction of the relayer. */
export function signRelayed(relayer: Relayer, fields: RelayedFields): Promise<Hex> {
  return relayer.account.signTransaction({
    type: "eip1559",
    chainId: relayer.chainId,
    to: fields.to,
    data: fields.data,
    gas: fields.gas,
    nonce: Number(fields.nonce),
    maxFeePerGas: fields.maxFeePerGas,
    maxPriorityFeePerGas: fields.maxPriorityFeePerGas,
  });
}

/**
 * Hands signed bytes to the node. Never throws: a refusal is recorded on the row and logged,
 * and the next check acts on it (sends again, replaces, or finds the nonce used). Resolves
 * with whether the node has the transaction now; when it does, `sent_block` is the head, the
 * block replacement is counted from.
 */
export async function broadcast(
  relayer: Relayer,
  row: RelayedRow,
  signed: Hex,
  head?: bigint,
): Promise<boolean> {
  try {
    await relayer.chain.sendRawTransaction({ serializedTransaction: signed });
  } catch (error) {
    const refusal = classifyBroadcastError(error);
    if (refusal !== "known") {
      const message = summarizeChainError(error).slice(0, 500);
      relayer.log.warn("the node refused a relayer transaction", {
        purpose: row.purpose,
        nonce: row.nonce.toString(),
        refusal,
        error: message,
      });
      await updateRelayed(relayer.db, row.id, { last_error: `${refusal}: ${message}` });
      return false;
    }
  }
  const sentBlock = head ?? (await relayer.chain.getBlockNumber().catch(() => null));
  await updateRelayed(relayer.db, row.id, {
    ...(sentBlock === null ? {} : { sent_block: sentBlock }),
    last_error: null,
  });
  return true;
}
