import type { Address } from "viem";

/**
 * The currencies an invoice or a payment link may be priced in. `USDC` is the spec's behaviour
 * (amounts are what is paid); the others are ISO 4217 codes whose rate comes from a Chainlink
 * data feed on Base, read at the block of each payment (domain/rates.ts).
 */
export const CURRENCIES = ["USDC", "USD", "EUR", "GBP"] as const;
export type Currency = (typeof CURRENCIES)[number];
export type FiatCurrency = Exclude<Currency, "USDC">;

/** A Chainlink data feed on Base: its proxy address, its answer's decimals and its heartbeat. */
export type PriceFeed = {
  /** What the answer is, as Chainlink names the feed: `EUR / USD` is USD per EUR. */
  pair: string;
  address: Address;
  decimals: number;
  /** The longest time between two rounds when the price does not move, in seconds. */
  heartbeatSeconds: number;
};

/**
 * Chainlink's feeds on Base mainnet (chain 8453), from Chainlink Labs' own feed list
 * (`data/feeds/base.json` of `@chainlink/mcp-server`, the data behind docs.chain.link's
 * "Price Feed Contract Addresses" for Base; checked 2026-11-28). Forex feeds update at least
 * once a day (24 h heartbeat), USDC / USD too. The local simulated chain places a compatible
 * feed at each of these addresses (chain/localFeeds.ts); fork mode reads the real ones.
 */
export const PRICE_FEEDS = {
  EUR: {
    pair: "EUR / USD",
    address: "0xc91D87E81faB8f93699ECf7Ee9B44D11e1D53F0F",
    decimals: 8,
    heartbeatSeconds: 86_400,
  },
  GBP: {
    pair: "GBP / USD",
    address: "0xCceA6576904C118037695eB71195a5425E69Fa15",
    decimals: 8,
    heartbeatSeconds: 86_400,
  },
  USDC: {
    pair: "USDC / USD",
    address: "0x7e860098F58bBFC8648a4311b374B1D669a2bc6B",
    decimals: 8,
    heartbeatSeconds: 86_400,
  },
} as const satisfies Record<string, PriceFeed>;

export type FeedName = keyof typeof PRICE_FEEDS;

/**
 * Base's L2 sequencer uptime feed: answer 0 while the sequencer is up, 1 while it is down;
 * `startedAt` is when that status began. Chainlink's guidance for rollups: distrust every price
 * while the sequencer is down and for a grace period after it comes back, because rounds could
 * not be posted meanwhile.
 */
export const SEQUENCER_UPTIME_FEED = {
  pair: "L2 Sequencer Uptime Status Feed",
  address: "0xBCF85224fc0756B9Fa45aA7892530B47e10b6433" as Address,
  decimals: 0,
} as const;

/** Chainlink's example grace period after the sequencer comes back up: one hour. */
export const SEQUENCER_GRACE_SECONDS = 3_600;

/** The feeds a currency's conversion reads: its own (none for USD) and USDC's. */
export function feedsOf(currency: FiatCurrency): FeedName[] {
  return currency === "USD" ? ["USDC"] : [currency, "USDC"];
}

export const isCurrency = (value: string): value is Currency =>
  (CURRENCIES as readonly string[]).includes(value);

/**
 * Items grouped by the currency they are in, so that no figure is ever added to one in another
 * unit: USDC's group first, then the others by code (a report reads the same on every run).
 *
 * @example groupByCurrency([{ currency: "EUR" }, { currency: "USDC" }]) // [["USDC", […]], ["EUR", […]]]
 */
export function groupByCurrency<T extends { currency: Currency }>(
  items: readonly T[],
): [Currency, T[]][] {
  const groups = new Map<Currency, T[]>();
  for (const item of items) {
    const group = groups.get(item.currency);
    if (group) group.push(item);
    else groups.set(item.currency, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) =>
    a === b ? 0 : a === "USDC" ? -1 : b === "USDC" ? 1 : a.localeCompare(b),
  );
}
