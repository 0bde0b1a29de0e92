import type { Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { indexerLog } from "./log.ts";
import { indexerSettings } from "./settings.ts";

/** The NOTIFY channel that db/migrations' insert trigger on app.deposit_addresses uses. */
const DEPOSIT_ADDRESS_CHANNEL = "remit_deposit_address";
/** How the listening connection shows in pg_stat_activity (and how tests find it). */
export const LISTENER_APPLICATION_NAME = "remit-indexer-deposit-addresses";

/**
 * How often the listening connection is asked to answer, and how long it has. A connection a
 * NAT or firewall dropped in silence raises no error: without asking, it stays "connected" and
 * deaf for good. TCP keepalive finds it too, but only after minutes.
 */
const CHECK_EVERY_MS = 3_000;
const CHECK_DEADLINE_MS = 3_000;
/** A reload of recent rows, whatever the connection says (belt and braces). */
const RELOAD_EVERY_MS = 60_000;
/**
 * A reload reads the rows created since the previous one began, less this: a row's created_at
 * is its transaction's start, which may precede its commit (bounded by statement timeouts).
 */
const RELOAD_OVERLAP = "5 minutes";

/** The earlier of two blocks (bigints: Math.min refuses them). */
const earlier = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Addresses the set learnt late, and the first block that may hold a transfer it missed. */
export type CatchUp = { addresses: string[]; fromBlock: bigint };

/**
 * The set of deposit addresses the indexer keeps transfers for, held in memory because it is
 * consulted for every USDC transfer on Base.
 *
 * It LISTENs before it loads, so an address committed between the two is still seen. While the
 * listening connection is down the set may be behind, so `current()` reconnects and reloads
 * before answering. An address is shown to a payer only after its row commits, and the NOTIFY
 * arrives milliseconds after commit, long before a payment to it can be mined.
 *
 * A connection can also die in silence (a NAT dropping it): the set then goes deaf while
 * believing itself current. So the connection has TCP keepalive, is asked to answer every few
 * seconds (and replaced when it does not), and recent rows are reloaded every minute. Whenever
 * an address turns up that the set lacked, the transfers to it that may have gone by unmatched
 * are owed a catch-up from `coveredBlock`: the block the handler had reached when the set was
 * last known complete (any transfer to an address committed later is in a later block).
 * `takeCatchUp()` hands them to the handler, which looks them up on the chain.
 */
export class DepositAddressSet {
  private addresses = new Set<string>();
  private client: pg.Client | null = null;
  private loading: Promise<Set<string>> | null = null;
  /** Database time at the start of the last reload; null before the first load. */
  private reloadedAt: Date | null = null;
  /** The highest block the handler has matched against the set. */
  private seenBlock = 0n;
  /** `seenBlock` when the set was last known complete (a load, or an answered check). */
  private coveredBlock = 0n;
  private owed = new Map<string, bigint>();
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly connectionString: string | undefined,
    /** Ponder's schema, for committedTransferIds; none in a bare build. */
    private readonly schema?: string,
  ) {}

  /** The set, current; `block`: the block of the transfer about to be matched. */
  async current(block?: bigint): Promise<ReadonlySet<string>> {
    if (block !== undefined && block > this.seenBlock) this.seenBlock = block;
    if (this.client) return this.addresses;
    return this.reconnect();
  }

  /** The addresses owed a catch-up (taken: hand them back with `owe` if it fails). */
  takeCatchUp(): CatchUp | null {
    if (this.owed.size === 0) return null;
    const fromBlock = [...this.owed.values()].reduce(earlier);
    const catchUp = { addresses: [...this.owed.keys()], fromBlock };
    this.owed.clear();
    return catchUp;
  }

  owe(catchUp: CatchUp): void {
    for (const address of catchUp.addresses) {
      const known = this.owed.get(address);
      this.owed.set(
        address,
        known !== undefined && known < catchUp.fromBlock ? known : catchUp.fromBlock,
      );
    }
  }

  /**
   * Which of these transfer ids are committed in the indexer's table: read on this set's own
   * connection, so outside Ponder's transaction. Throws when it cannot be asked, or does not
   * answer within the check's deadline (a connection dropped in silence would hold the handler).
   */
  async committedTransferIds(ids: string[]): Promise<ReadonlySet<string>> {
    const client = this.client;
    if (!client || !this.schema) throw new Error("the indexer's table cannot be read from here");
    const query = client.query<{ id: string }>(
      `select id from ${client.escapeIdentifier(this.schema)}.usdc_transfer where id = any($1)`,
      [ids],
    );
    const { rows } = await Promise.race([
      query,
      delay(CHECK_DEADLINE_MS, undefined, { ref: false }).then(() => {
        throw new Error(`no answer within ${CHECK_DEADLINE_MS} ms`);
      }),
    ]);
    return new Set(rows.map((row) => row.id));
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    const client = this.client;
    this.client = null;
    await client?.end();
  }

  private reconnect(): Promise<Set<string>> {
    this.loading ??= this.connectWithRetry().finally(() => {
      this.loading = null;
    });
    return this.loading;
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
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client.on("error", () => this.lose(client));
    client.on("end", () => this.lose(client));
    await client.connect();
    client.on("notification", (message) => {
      if (message.channel === DEPOSIT_ADDRESS_CHANNEL && message.payload) {
        this.addresses.add(message.payload.toLowerCase());
      }
    });
    try {
      await client.query(`listen ${DEPOSIT_ADDRESS_CHANNEL}`);
      await this.reload(client);
    } catch (error) {
      this.lose(client);
      throw error;
    }
    this.client = client;
    this.startTimers();
    return this.addresses;
  }

  /**
   * Reads the rows created since the previous reload (all of them the first time); those the
   * set lacked, after the first load, were missed: they are owed a catch-up.
   */
  private async reload(client: pg.Client): Promise<void> {
    const block = this.seenBlock;
    const { rows } = await client.query<{ at: Date; addresses: string[] }>(
      `select now() as at, array(
         select address from app.deposit_addresses
         where created_at > $1::timestamptz - $2::interval
       ) as addresses`,
      [this.reloadedAt ?? "-infinity", RELOAD_OVERLAP],
    );
    const [row] = rows;
    if (!row) return;
    const late: string[] = [];
    for (const raw of row.addresses) {
      const address = raw.toLowerCase();
      if (this.addresses.has(address)) continue;
      if (this.reloadedAt) late.push(address);
      this.addresses.add(address);
    }
    if (late.length) {
      this.owe({ addresses: late, fromBlock: this.coveredBlock });
      // Rare (the listening connection was lost), and what to look at when a payment is missed.
      indexerLog("info", "deposit addresses learnt late: owed a catch-up", {
        addresses: late,
        from_block: String(this.coveredBlock),
      });
    }
    this.reloadedAt = row.at;
    this.coveredBlock = block;
  }

  private startTimers(): void {
    if (this.timers.length) return;
    const check = setInterval(() => void this.check(), CHECK_EVERY_MS);
    const reload = setInterval(() => {
      const client = this.client;
      if (client) void this.reload(client).catch(() => this.lose(client));
    }, RELOAD_EVERY_MS);
    for (const timer of [check, reload]) timer.unref();
    this.timers = [check, reload];
  }

  /**
   * Asks the listening connection to answer within the deadline. Notifications arrive in order
   * with query results, so an answer also means every address committed before the question is
   * in the set: the handler's block at that moment is covered.
   */
  private async check(): Promise<void> {
    const client = this.client;
    if (!client) {
      // Lost between two transfers: reconnect now, so what it missed is known at the next one.
      if (!this.loading) void this.reconnect().catch(() => {});
      return;
    }
    const block = this.seenBlock;
    const answered = await Promise.race([
      client.query("select 1").then(
        () => true,
        () => false,
      ),
      delay(CHECK_DEADLINE_MS, false, { ref: false }),
    ]);
    if (this.client !== client) return;
    if (answered) this.coveredBlock = block;
    else {
      this.lose(client);
      void this.reconnect().catch(() => {});
    }
  }

  /** Drops a connection that failed or stopped answering; the next use reconnects. */
  private lose(client: pg.Client): void {
    if (this.client === client) this.client = null;
    // A dead peer never answers a polite end(): close the socket itself.
    (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
    client.end().catch(() => {});
  }
}

/** The indexer process's one set, on the database Ponder writes to. */
export const depositAddresses = new DepositAddressSet(
  indexerSettings().databaseUrl,
  indexerSettings().schema,
);
