import { rpcRequestAny } from "../chain/rpc.ts";
import { createDb } from "../db/database.ts";
import {
  blockNumberFromCheckpoint,
  dropIndex,
  indexedTransferBlocks,
  indexerCheckpoints,
} from "../db/queries/indexer.ts";
import type { Logger } from "../internal/logger.ts";

/** Ponder's checkpoint begins with the block's timestamp, 10 decimal digits. */
const timestampFromCheckpoint = (checkpoint: string): bigint => BigInt(checkpoint.slice(0, 10));

/** The newest transfers' blocks compared by hash (the checkpoint's block is compared too). */
const TRANSFER_BLOCKS_CHECKED = 20;

type Block = { hash: string; timestamp: string } | null;

/**
 * Why the index stored in `schema` is not of the chain `rpcUrl` serves now, or null when it
 * is (or there is none yet). The block of Ponder's checkpoint must still be there with the
 * timestamp it had, and the newest blocks holding an indexed transfer with the hash they had.
 * `upTo` "latest" checks everything indexed (the simulated chain never reorgs by itself, so any
 * difference is a chain that forgot blocks); "finalized" only what Ponder took for final (on
 * Base, blocks above it may be reorged, and Ponder reverts them itself at its start).
 */
export async function indexMismatch(
  databaseUrl: string,
  schema: string,
  rpcUrl: string,
  upTo: "latest" | "finalized",
): Promise<string | null> {
  const db = createDb(databaseUrl, { max: 1 });
  try {
    const checkpoints = await indexerCheckpoints(db, schema);
    if (!checkpoints) return null;
    const checkpoint = upTo === "latest" ? checkpoints.latest : checkpoints.finalized;
    const indexedBlock = blockNumberFromCheckpoint(checkpoint);
    const head = BigInt(await rpcRequestAny<string>(rpcUrl, "eth_blockNumber", []));
    if (indexedBlock > head)
      return `the index reaches block ${indexedBlock}, beyond the chain's head ${head}`;
    const block = await rpcRequestAny<Block>(rpcUrl, "eth_getBlockByNumber", [
      `0x${indexedBlock.toString(16)}`,
      false,
    ]);
    if (!block || BigInt(block.timestamp) !== timestampFromCheckpoint(checkpoint))
      return `block ${indexedBlock} is not the one indexed (another timestamp)`;
    for (const { blockNumber, blockHash } of await indexedTransferBlocks(
      db,
      schema,
      TRANSFER_BLOCKS_CHECKED,
    )) {
      if (blockNumber > indexedBlock) continue;
      const onChain = await rpcRequestAny<Block>(rpcUrl, "eth_getBlockByNumber", [
        `0x${blockNumber.toString(16)}`,
        false,
      ]);
      if (onChain?.hash.toLowerCase() !== blockHash.toLowerCase())
        return `block ${blockNumber}, which holds an indexed transfer, is not the one indexed (another hash)`;
    }
    return null;
  } finally {
    await db.destroy();
  }
}

/**
 * Makes sure the indexer starts on an index of the chain it follows. On the simulated chain
 * (`rebuild`), an index of blocks the chain no longer has is dropped, and the indexer builds it
 * anew from the chain; reconcile then derives every invoice's state again from it. Anvil keeps
 * its chain in a state file written every two seconds and on a clean exit: a kill -9 of anvil
 * or of the machine, or a state file copied from an earlier stop, brings back a chain older
 * than the index, and Ponder, which compares no hash of what it stored with the chain at its
 * start, would resume on it, then loop on an "unrecoverable reorg" at its first new block.
 * Elsewhere (Base itself, or a fork of it) nothing is dropped: a reorg below what Ponder took
 * for final is an operator's event (docs/operations.md), said loudly. Returns whether it
 * dropped the index.
 */
export async function ensureIndexOfChain(options: {
  databaseUrl: string;
  schema: string;
  rpcUrl: string;
  rebuild: boolean;
  log: Logger;
}): Promise<boolean> {
  const { databaseUrl, schema, rpcUrl, rebuild, log } = options;
  const reason = await indexMismatch(databaseUrl, schema, rpcUrl, rebuild ? "latest" : "finalized");
  if (!reason) return false;
  if (!rebuild) {
    log.error(
      "the chain no longer holds blocks the indexer took for final: a reorg deeper than Base's finality depth, or an RPC serving another chain; the index is kept as it is (docs/operations.md, 'A reorg below the finalized block')",
      { schema, reason },
    );
    return false;
  }
  log.warn("the local chain does not hold what was indexed; rebuilding the index from the chain", {
    schema,
    reason,
  });
  const db = createDb(databaseUrl, { max: 1 });
  try {
    await dropIndex(db, schema);
  } finally {
    await db.destroy();
  }
  return true;
}
