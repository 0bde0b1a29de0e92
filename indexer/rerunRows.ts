/**
 * Which rows must be written past Ponder's row cache: those given to Ponder in an attempt of a
 * transaction that Ponder is now running again.
 *
 * Ponder runs a block's (or a backfill batch's) handlers and writes their rows in one
 * transaction, and when any of it fails, its COMMIT included, it runs the whole transaction
 * again. Its row cache keeps the rows it flushed in the failed attempt, so the retry's insert of
 * the same row, through the cache, finds it "there" and writes nothing: the block was committed
 * without the payment (read in ponder/dist/esm: runtime/multichain.js clears the cache on a
 * handler's or flush's error, not on a failed COMMIT; indexing-store/cache.js).
 *
 * A new attempt shows as an event at or before the last one handled (events come in checkpoint
 * order, `event.id` being the checkpoint; a reorg's replay shows the same way): every row given
 * at or after that point was given in an attempt that did not commit, and is written past the
 * cache when given again. Everything else goes through the cache as before.
 */
export class RerunRows {
  /** Each row given, with the checkpoint of the event whose transaction wrote it, oldest first. */
  private readonly given = new Map<string, string>();
  /** Rows given in an attempt Ponder is running again, not written again yet. */
  private readonly rerun = new Set<string>();
  private last = "";

  /** Rows older than the newest `limit` are long committed: a transaction holds far fewer. */
  constructor(private readonly limit = 100_000) {}

  /** Each handler run, with its event's checkpoint, before it gives rows. */
  handling(checkpoint: string): void {
    if (checkpoint <= this.last)
      for (const [id, at] of this.given) if (at >= checkpoint) this.rerun.add(id);
    this.last = checkpoint;
  }

  /** Records rows given at `checkpoint`; whether any must be written past the cache. */
  give(ids: readonly string[], checkpoint: string): boolean {
    let past = false;
    for (const id of ids) {
      if (this.rerun.delete(id)) past = true;
      this.given.delete(id);
      this.given.set(id, checkpoint);
    }
    for (const oldest of this.given.keys()) {
      if (this.given.size <= this.limit) break;
      this.given.delete(oldest);
    }
    return past;
  }
}
