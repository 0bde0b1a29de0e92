import type { Hash } from "viem";
import { classifyChainError, summarizeChainError } from "./errors.ts";

/** What isTransactionMined needs of a viem public client (of any chain). */
export type TransactionLookup = {
  getTransactionReceipt: (args: { hash: Hash }) => Promise<{ status: "success" | "reverted" }>;
  getTransaction: (args: { hash: Hash }) => Promise<{ blockNumber: bigint | null }>;
};

/** The chain could not be asked; the caller must retry, not conclude. */
export class ChainUnanswered extends Error {
  override name = "ChainUnanswered";
}

/**
 * Whether transaction `hash` is mined and succeeded in the node's canonical chain. False only
 * on the node's own word: its receipt says it reverted, or the node has no receipt and either
 * does not know the transaction at all or knows it only as pending (in no block: a reorged
 * transaction waiting to be mined again is no payment yet). Anything else throws
 * ChainUnanswered (with the error as its cause): the node unreachable, an HTTP error, a
 * timeout, another RPC error, a node that knows the transaction in a block but not its
 * receipt. An outage must never read as "not mined".
 *
 * @example if (!(await isTransactionMined(client, hash))) reverse(); // a throw retries the job
 */
export async function isTransactionMined(client: TransactionLookup, hash: Hash): Promise<boolean> {
  const receipt = await client
    .getTransactionReceipt({ hash })
    .catch((error: unknown) => notFoundOrThrow(error, hash));
  if (receipt) return receipt.status === "success";
  const transaction = await client
    .getTransaction({ hash })
    .catch((error: unknown) => notFoundOrThrow(error, hash));
  if (!transaction || transaction.blockNumber === null) return false;
  throw new ChainUnanswered(
    `the node has transaction ${hash} in block ${transaction.blockNumber} but no receipt for it`,
  );
}

/** Null for the node's definite "no such transaction / receipt"; a ChainUnanswered otherwise. */
function notFoundOrThrow(error: unknown, hash: Hash): null {
  if (classifyChainError(error).kind === "not_found") return null;
  throw new ChainUnanswered(
    `could not ask the chain about transaction ${hash}: ${summarizeChainError(error)}`,
    { cause: error },
  );
}
