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
 */
export class StatusCache {
  private entries = new Map<string, Entry>();
  private client: pg.Client | null = null;
  private listening = false;
  private stopped = false;

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

  set(slug: string, value: unknown): void {
    if (!this.listening) return;
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(slug, { value, expires: Date.now() + this.ttlMs });
  }

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      this.entries.clear();
      client.end().catch(() => {});
      if (!this.stopped) setTimeout(() => void this.start().catch(() => {}), 1_000).unref();
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel === STATUS_CHANNEL && message.payload)
        this.entries.delete(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${STATUS_CHANNEL}`);
      this.client = client;
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
