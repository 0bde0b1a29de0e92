import { decodeEventLog, type Hash, type Log } from "viem";
import { usdcAbi } from "../abis/usdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import type { ChainView } from "../domain/transactionLookup.ts";
import { classifyChainError } from "./errors.ts";

/** One USDC Transfer log of a receipt. */
export type UsdcTransferLog = { logIndex: number; to: string; value: bigint };

/** What a transaction lookup learns from the chain: its view, its USDC transfers, the head. */
export type TransactionOnChain = {
  view: ChainView;
  usdcTransfers: UsdcTransferLog[];
  head: bigint | null;
};

/** What readTransactionOnChain needs of a viem public client. */
export type TransactionReader = {
  getTransactionReceipt: (args: { hash: Hash }) => Promise<{
    status: "success" | "reverted";
    blockNumber: bigint;
    logs: readonly Log[];
  }>;
  getTransaction: (args: { hash: Hash }) => Promise<unknown>;
  getBlockNumber: (args?: { cacheTime?: number }) => Promise<bigint>;
};

const UNAVAILABLE: TransactionOnChain = {
  view: { kind: "unavailable" },
  usdcTransfers: [],
  head: null,
};

/**
 * The USDC transfers of a receipt's logs: Transfer events of Circle's contract at its canonical
 * address only. A token that copies USDC's name, symbol and event from another address is no
 * USDC (tokens anyone can deploy are how "you were paid" scams work).
 */
export function usdcTransfersOf(logs: readonly Log[]): UsdcTransferLog[] {
  const transfers: UsdcTransferLog[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== USDC_ADDRESS.toLowerCase()) continue;
    try {
      const event = decodeEventLog({ abi: usdcAbi, data: log.data, topics: log.topics });
      if (event.eventName !== "Transfer") continue;
      const { to, value } = event.args as { to: string; value: bigint };
      transfers.push({ logIndex: log.logIndex ?? 0, to: to.toLowerCase(), value });
    } catch {
      // Another event of the contract (Approval, AuthorizationUsed…): no transfer.
    }
  }
  return transfers;
}

/**
 * What the chain says of transaction `hash`, within `timeoutMs`: mined (with its USDC
 * transfers and the head, for confirmations), pending, or unknown to the node. Never throws: a
 * node that cannot be asked, errs or is too slow gives `unavailable`, so a lookup answers "can't
 * check right now" and never a 500.
 *
 * @example (await readTransactionOnChain(client, hash, 3_000)).view.kind // "not_found"
 */
export async function readTransactionOnChain(
  client: TransactionReader,
  hash: Hash,
  timeoutMs: number,
): Promise<TransactionOnChain> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<TransactionOnChain>((resolve) => {
    timer = setTimeout(() => resolve(UNAVAILABLE), timeoutMs);
  });
  try {
    return await Promise.race([ask(client, hash), deadline]);
  } catch {
    return UNAVAILABLE;
  } finally {
    clearTimeout(timer);
  }
}

async function ask(client: TransactionReader, hash: Hash): Promise<TransactionOnChain> {
  const receipt = await client.getTransactionReceipt({ hash }).catch(nullWhenNotFound);
  if (receipt) {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const usdcTransfers = receipt.status === "success" ? usdcTransfersOf(receipt.logs) : [];
    return {
      view: {
        kind: "mined",
        success: receipt.status === "success",
        blockNumber: receipt.blockNumber,
        usdcTransfers: usdcTransfers.length,
      },
      usdcTransfers,
      head,
    };
  }
  const transaction = await client.getTransaction({ hash }).catch(nullWhenNotFound);
  return {
    view: transaction ? { kind: "pending" } : { kind: "not_found" },
    usdcTransfers: [],
    head: null,
  };
}

/** Null for the node's definite "no such transaction / receipt"; rethrown otherwise. */
function nullWhenNotFound(error: unknown): null {
  if (classifyChainError(error).kind === "not_found") return null;
  throw error;
}
