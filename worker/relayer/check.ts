import { type Address, type Hash, type Hex, keccak256, type TransactionReceipt } from "viem";
import { classifyChainError, summarizeChainError } from "../../chain/errors.ts";
import {
  findRelayedByNonce,
  type RelayedRow,
  updateRelayed,
} from "../../db/queries/relayerTransactions.ts";
import type { Relayer } from "./relayer.ts";
import { broadcast, signRelayed } from "./submit.ts";

/** Where a relayed transaction stands. */
export type RelayedOutcome =
  | { state: "mined"; hash: Hash; success: boolean; blockNumber: bigint }
  | { state: "pending" }
  /** Its nonce was used by another transaction and none of its own hashes was mined. */
  | { state: "dropped" };

/** Nonces below a pending transaction sent again by one check; the next check goes on. */
const MAX_FILLED = 16n;

/** Each replacement pays at least this much more (nodes want 10 % more to replace). */
const BUMP_PERCENT = 25n;

/**
 * Looks once at a relayed transaction, without waiting: mined (under any hash it was sent
 * under), or its nonce used by something else (dropped: the caller decides whether to submit
 * its call again, under a new nonce), or still pending. A pending transaction the node
 * never accepted is broadcast again; one not mined `replaceAfterBlocks` blocks after it was
 * sent is re-signed under the same nonce at a higher fee (at least 25 % more, and at least
 * the current estimate) and sent as its replacement: never a new nonce for the same call.
 * The caller schedules the next look; nothing holds a worker while the chain moves.
 */
export async function checkRelayed(relayer: Relayer, row: RelayedRow): Promise<RelayedOutcome> {
  if (row.status === "mined" && row.mined_hash && row.mined_block !== null)
    return {
      state: "mined",
      hash: row.mined_hash as Hash,
      success: row.receipt_status === "success",
      blockNumber: row.mined_block,
    };
  if (row.status === "dropped") return { state: "dropped" };

  const mined = await findMined(relayer, row);
  if (mined) return recordMined(relayer, row, mined);
  const used = await relayer.chain.getTransactionCount({
    address: relayer.account.address,
    blockTag: "latest",
  });
  if (BigInt(used) > row.nonce) {
    // Mined between the two questions, or the nonce went to another transaction.
    const late = await findMined(relayer, row);
    if (late) return recordMined(relayer, row, late);
    relayer.log.warn("a relayer transaction's nonce was used by another transaction", {
      purpose: row.purpose,
      nonce: row.nonce.toString(),
    });
    await updateRelayed(relayer.db, row.id, { status: "dropped" });
    return { state: "dropped" };
  }

  const head = await relayer.chain.getBlockNumber();
  if (row.sent_block === null) await broadcast(relayer, row, row.signed as Hex, head);
  else if (head - row.sent_block >= BigInt(relayer.replaceAfterBlocks)) {
    // A lower nonce the chain has not seen holds this one back, whatever its fee.
    for (let nonce = BigInt(used); nonce < row.nonce && nonce < BigInt(used) + MAX_FILLED; nonce++)
      await fillNonce(relayer, nonce, head);
    await replace(relayer, row, head);
  }
  return { state: "pending" };
}

/**
 * Sends the relayer's transaction at `nonce` again when the chain has none under it although
 * one was recorded: mined in a block the chain no longer has (reorged out, or a local chain
 * resumed from an older state file) or never received. Every later nonce waits for it, so
 * without this they would be re-sent at ever higher fees and never mined. Its own signed bytes
 * go again, the same call: its transfer, an EIP-3009 authorization with its deterministic
 * nonce, moves money at most once however often it is sent. A nonce recorded for nothing (or
 * for a transaction reported dropped, whose caller has sent its call again under another
 * nonce) is filled with an empty transfer to the relayer itself, so no call is made twice.
 * A pending row's own check re-sends it; nothing is done for it here.
 */
async function fillNonce(relayer: Relayer, nonce: bigint, head: bigint): Promise<void> {
  const below = await findRelayedByNonce(relayer.db, relayer.account.address.toLowerCase(), nonce);
  if (below?.status === "pending") return;
  if (below?.status === "mined") {
    // Mined since the chain's count was read: nothing is missing.
    if (await findMined(relayer, below)) return;
    relayer.log.warn(
      "a relayer transaction recorded as mined is not on the chain (a reorg, or a local chain that forgot blocks); sending it again",
      { purpose: below.purpose, nonce: nonce.toString(), mined_block: String(below.mined_block) },
    );
    await broadcast(relayer, below, below.signed as Hex, head);
    return;
  }
  const fees = await relayer.chain.estimateFeesPerGas();
  relayer.log.warn("a relayer nonce below pending transactions is unused; filling it", {
    nonce: nonce.toString(),
    recorded: below?.purpose ?? null,
  });
  const filler = await signRelayed(relayer, {
    to: relayer.account.address,
    data: "0x",
    gas: 21_000n,
    nonce,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  await relayer.chain.sendRawTransaction({ serializedTransaction: filler }).catch((error) =>
    relayer.log.warn("the node refused the filler of a relayer nonce", {
      nonce: nonce.toString(),
      error: summarizeChainError(error).slice(0, 500),
    }),
  );
}

/** The receipt of whichever of the row's hashes is mined, newest first. */
async function findMined(relayer: Relayer, row: RelayedRow): Promise<TransactionReceipt | null> {
  for (const hash of [...row.hashes].reverse()) {
    const receipt = await relayer.chain
      .getTransactionReceipt({ hash: hash as Hash })
      .catch((error: unknown) => {
        // The node's definite "no such receipt" is an answer; anything else is retried.
        if (classifyChainError(error).kind === "not_found") return null;
        throw error;
      });
    if (receipt) return receipt;
  }
  return null;
}

async function recordMined(
  relayer: Relayer,
  row: RelayedRow,
  receipt: TransactionReceipt,
): Promise<RelayedOutcome> {
  await updateRelayed(relayer.db, row.id, {
    status: "mined",
    mined_hash: receipt.transactionHash,
    mined_block: receipt.blockNumber,
    receipt_status: receipt.status,
    // The day's gas budget counts what it really used from now on, not its limit.
    gas_used: receipt.gasUsed,
    last_error: null,
  });
  return {
    state: "mined",
    hash: receipt.transactionHash,
    success: receipt.status === "success",
    blockNumber: receipt.blockNumber,
  };
}

/** Re-signs the same nonce at a higher fee and sends it; its fees kept once the node accepts it. */
async function replace(relayer: Relayer, row: RelayedRow, head: bigint): Promise<void> {
  const fees = await relayer.chain.estimateFeesPerGas();
  const bump = (value: bigint) => value + (value * BUMP_PERCENT) / 100n + 1n;
  const maxPriorityFeePerGas = max(
    bump(BigInt(row.max_priority_fee_per_gas)),
    fees.maxPriorityFeePerGas,
  );
  const maxFeePerGas = max(
    bump(BigInt(row.max_fee_per_gas)),
    fees.maxFeePerGas,
    maxPriorityFeePerGas,
  );
  const signed = await signRelayed(relayer, {
    to: row.to_address as Address,
    data: row.data as Hex,
    gas: row.gas,
    nonce: row.nonce,
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  relayer.log.info("re-sending a relayer transaction at a higher fee", {
    purpose: row.purpose,
    nonce: row.nonce.toString(),
    blocks_waited: (head - (row.sent_block ?? head)).toString(),
    max_fee_per_gas: maxFeePerGas.toString(),
  });
  // Its hash is known before the node sees it: if the worker dies right after, the next check
  // still finds it mined.
  await updateRelayed(relayer.db, row.id, { addHash: keccak256(signed) });
  if (!(await broadcast(relayer, row, signed, head))) return;
  await updateRelayed(relayer.db, row.id, {
    signed,
    max_fee_per_gas: maxFeePerGas.toString(),
    max_priority_fee_per_gas: maxPriorityFeePerGas.toString(),
  });
}

/** The largest of some bigints (Math.max takes numbers only). */
function max(first: bigint, ...rest: bigint[]): bigint {
  let largest = first;
  for (const value of rest) if (value > largest) largest = value;
  return largest;
}
