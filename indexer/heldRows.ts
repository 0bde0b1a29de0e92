/**
 * Rows a catch-up stored in a block's transaction, held until they are seen committed.
 *
 * Ponder runs a block's handlers in one transaction and, when it fails (a database that went
 * away mid-block), runs them again in a new one. A catch-up (indexer/catchUp.ts) is taken from
 * the deposit-address set in the first run: its rows, rolled back with that transaction, would
 * not be looked for again. So the handler stores the held rows again at each transfer (an
 * insert that does nothing once they are there) until a read outside Ponder's transaction
 * finds them committed.
 */
export class HeldRows<Row extends { id: string }> {
  private readonly held = new Map<string, Row>();

  /** `committed`: which of these ids are committed; a failure means none are known to be. */
  constructor(private readonly committed: (ids: string[]) => Promise<ReadonlySet<string>>) {}

  hold(rows: readonly Row[]): void {
    for (const row of rows) this.held.set(row.id, row);
  }

  /** Stops holding these (rows that are not to be stored again). */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.held.delete(id);
  }

  /** The held rows not seen committed (all of them when that cannot be asked); forgets the rest. */
  async uncommitted(): Promise<Row[]> {
    if (this.held.size === 0) return [];
    const committed = await this.committed([...this.held.keys()]).catch(() => new Set<string>());
    for (const id of committed) this.held.delete(id);
    return [...this.held.values()];
  }
}
