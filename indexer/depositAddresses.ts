import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";

/** The NOTIFY channel that db/migrations' insert trigger on app.deposit_addresses uses. */
const DEPOSIT_ADDRESS_CHANNEL = "remit_deposit_address";

/**
 * The set of deposit addresses the indexer keeps transfers for, held in memory because it is
 * consulted for every USDC transfer on Base.
 *
 * It LISTENs before it loads, so an address committed between the two is still seen. While the
 * listening connection is down the set may be behind, so `current()` reconnects and reloads
 * before answering: a transfer is never matched against a stale set. An address is shown to a
 * payer only after its row commits, and the NOTIFY arrives milliseconds after commit, long
 * before a payment to it can be mined.
 */
class DepositAddressSet {
  private addresses = new Set<string>();
  private client: pg.Client | null = null;
  private loading: Promise<Set<string>> | null = null;

  constructor(private readonly connectionString: string | undefined) {}

  async current(): Promise<ReadonlySet<string>> {
    if (this.client) return this.addresses;
    this.loading ??= this.connectWithRetry().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end();
  }

  private async connectWithRetry(): Promise<Set<string>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.connect();
      } catch (error) {
        // Ponder treats a throwing handler as fatal; give the database a minute first.
        if (attempt >= 30) throw error;
        await delay(Math.min(2_000, 100 * attempt));
      }
    }
  }

  private async connect(): Promise<Set<string>> {
    if (!this.connectionString) throw new Error("DATABASE_URL is not set for the indexer");
    const client = new pg.Client({ connectionString: this.connectionString });
    const lost = () => {
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
    };
    client.on("error", lost);
    client.on("end", lost);
    await client.connect();
    const next = new Set<string>();
    client.on("notification", (message) => {
      if (message.channel === DEPOSIT_ADDRESS_CHANNEL && message.payload) {
        next.add(message.payload.toLowerCase());
      }
    });
    await client.query(`listen ${DEPOSIT_ADDRESS_CHANNEL}`);
    const { rows } = await client.query<{ address: string }>(
      "select address from app.deposit_addresses",
    );
    for (const row of rows) next.add(row.address.toLowerCase());
    this.addresses = next;
    this.client = client;
    return next;
  }
}

/** The indexer process's one set, on the database Ponder writes to. */
export const depositAddresses = new DepositAddressSet(
  process.env.DATABASE_PRIVATE_URL ?? process.env.DATABASE_URL,
);
