import type { IndexedTransfer } from "./paymentState.ts";

/**
 * How long reconcile waits, at most, for the index to show again a counted transfer whose
 * transaction the chain still has mined (the indexer replaying its last blocks after a
 * restart, or catching up with a re-mined block). Past it, the index is believed: the state is
 * recomputed from what it holds, so later payments are counted, and a transfer the indexer
 * stores again later simply counts again. Long enough to cover an indexer restart (Ponder's
 * schema lock alone can take 25 s), short enough that an address is never stuck for long.
 */
export const LOST_TRANSFER_WAIT_MS = 10 * 60_000;

/** Counted transfers (`<tx hash>-<log index>`) that the index no longer has, by why. */
export type LostTransfers = {
  /**
   * Their transaction is indexed and counted again under another id: the same transaction
   * re-mined at another log index (behind another transfer) or in another block. The index's
   * own transfers of that transaction are counted with their values, so a re-mined payment
   * counts once, and one whose value changed (re-executed in another state) produces the event
   * for the difference.
   */
  remined: string[];
  /** Their transaction is indexed again, still waiting for its confirmations. */
  unconfirmed: string[];
  /** Their transaction is not in the index at all: reorged out, or being re-indexed. */
  missing: string[];
};

/**
 * Sorts out the transfers counted before (`previousCounted`) that are not counted now
 * (`nextCounted`), matching them by transaction against everything indexed to the address,
 * whatever its confirmations. Only `missing` ones need the chain's word; `unconfirmed` ones
 * are worth a short wait; `remined` ones are just counted where they are now. A transfer's id
 * names its log index, which a reorg can change for the very same transaction: matching by id
 * alone saw such a payment as lost and still mined forever, and the address never moved on.
 *
 * @example findLostTransfers(["0xa-0"], [{ id: "0xa-1", txHash: "0xa", … }], ["0xa-1"]) // { remined: ["0xa-0"], unconfirmed: [], missing: [] }
 */
export function findLostTransfers(
  previousCounted: readonly string[],
  indexed: readonly IndexedTransfer[],
  nextCounted: readonly string[],
): LostTransfers {
  const txOf = (id: string) => id.split("-")[0]?.toLowerCase() ?? "";
  const countedTxs = new Set(nextCounted.map(txOf));
  const indexedTxs = new Set(indexed.map((t) => t.txHash.toLowerCase()));
  const lost: LostTransfers = { remined: [], unconfirmed: [], missing: [] };
  for (const id of previousCounted) {
    if (nextCounted.includes(id)) continue;
    const tx = txOf(id);
    if (countedTxs.has(tx)) lost.remined.push(id);
    else if (indexedTxs.has(tx)) lost.unconfirmed.push(id);
    else lost.missing.push(id);
  }
  return lost;
}

/**
 * Whether reconcile has waited long enough for lost transfers to come back (see
 * LOST_TRANSFER_WAIT_MS): `since` is when it first found them lost and still mined.
 */
export function lostWaitIsOver(since: Date, now: Date, maxWaitMs = LOST_TRANSFER_WAIT_MS) {
  return now.getTime() - since.getTime() >= maxWaitMs;
}
