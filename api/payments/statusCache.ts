import pg from "pg";

/** Channel of db/migrations/0005_status_notify.sql. */
const STATUS_CHANNEL = "remit_status";

type Entry = { value: unknown; expires: number };

/**
 * Status answers kept in memory, because every open checkout page polls every 5 s. An entry
 * is dropped when Postgres says its slug's status may have changed (LISTEN/NOTIFY), and after
 * `ttlMs` regardless (an invoice turns overdue at midnight without any write). While the
 * listening connection is down nothing is cached, so a missed notification can never leave a
 * stale answer behind.
 *
 * A read can be overtaken: it reads "pending", the payment commits and its NOTIFY arrives,
 * then the read stores "pending". So a reader notes `generation()` before reading and passes
 * it to `set`, which drops the answer if its slug was invalidated since (or the listening
 * connection was lost or just established, when notifications may have been missed).
 *
 * @example
 * const generation = cache.generation();
 * cache.set(slug, await readStatus(slug), generation);
 */
export class StatusCache {
  private entries = new Map<string, Entry>();
  private client: pg.Client | null = null;
  private listening = false;
  private stopped = false;
  /** Counts invalidations, of all slugs together. */
  private clock = 0;
  /** The clock at each slug's latest invalidation, oldest first; as bounded as the entries. */
  private invalidatedAt = new Map<string, number>();
  /** Reads that began before this may have missed an invalidation: never stored. */
  private floor = 0;

  constructor(
    private readonly connectionString: string,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 100_000,
  ) {}

  get(slug: string): unknown | undefined {
    const entry = this.entries.get(slug);
    if (!entry) return undefined;
    if (entry.expires > Date.now()) return entry.value;
    this.entries.delete(slug);
    return undefined;
  }

  /** The generation to note before reading an answer to `set`. */
  generation(): number {
    return this.clock;
  }

  /** Stores `value`, read after `generation()` returned `generation`, unless it may be stale. */
  set(slug: string, value: unknown, generation: number): void {
    if (!this.listening) return;
    if (generation < this.floor || (this.invalidatedAt.get(slug) ?? 0) > generation) return;
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(slug, { value, expires: Date.now() + this.ttlMs });
  }

  private invalidate(slug: string): void {
    this.clock += 1;
    this.entries.delete(slug);
    this.invalidatedAt.delete(slug);
    this.invalidatedAt.set(slug, this.clock);
    if (this.invalidatedAt.size > this.maxEntries) {
      // Forgetting a slug's invalidation means refusing every read that began before it.
      const [oldest, at] = this.invalidatedAt.entries().next().value as [string, number];
      this.invalidatedAt.delete(oldest);
      this.floor = at;
    }
  }

  private invalidateAll(): void {
    this.clock += 1;
    this.floor = this.clock;
    this.entries.clear();
    this.invalidatedAt.clear();
  }

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      this.invalidateAll();
      client.end().catch(() => {});
      if (!this.stopped) setTimeout(() => void this.start().catch(() => {}), 1_000).unref();
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel === STATUS_CHANNEL && message.payload) this.invalidate(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${STATUS_CHANNEL}`);
      this.client = client;
      // Reads that began before LISTEN took effect may have missed a notification.
      this.invalidateAll();
      this.listening = true;
    } catch {
      await client.end().catch(() => {});
      if (!this.stopped) setTimeout(() => void this.start().catch(() => {}), 1_000).unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
