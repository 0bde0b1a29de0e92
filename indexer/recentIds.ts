/**
 * The ids of the rows this process has given Ponder to store, the newest `limit` of them.
 *
 * Ponder runs a block's handlers and writes their rows in one transaction, and when any of it
 * fails, its COMMIT included, it runs the whole transaction again. Its row cache keeps the rows
 * it flushed in the failed attempt, so the retry's insert of the same row, through the cache,
 * finds it "there" and writes nothing: the block was committed without the payment (read in
 * ponder/dist/esm: runtime/multichain.js clears the cache on a handler's or flush's error, not on
 * a failed COMMIT; indexing-store/cache.js). A row given before is written past the cache.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  /** A retry follows its failure at once: the newest few thousand are plenty. */
  constructor(private readonly limit = 10_000) {}

  /** Whether any of these was given before; remembers them all as the newest. */
  givenBefore(ids: readonly string[]): boolean {
    const before = ids.some((id) => this.ids.has(id));
    for (const id of ids) {
      this.ids.delete(id);
      this.ids.add(id);
    }
    for (const oldest of this.ids) {
      if (this.ids.size <= this.limit) break;
      this.ids.delete(oldest);
    }
    return before;
  }
}
