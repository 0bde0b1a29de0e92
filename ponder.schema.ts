import { index, onchainTable } from "ponder";

/**
 * USDC transfers to (payments) or from (sweeps) one of Remit's deposit addresses, one row per
 * Transfer log. Addresses are stored lowercase. Auditors read it as `indexer.usdc_transfer`.
 */
export const usdcTransfer = onchainTable(
  "usdc_transfer",
  (t) => ({
    /** `<tx hash>-<log index>`: a log's identity within the canonical chain. */
    id: t.text().primaryKey(),
    blockNumber: t.bigint().notNull(),
    blockHash: t.hex().notNull(),
    /** Block timestamp, seconds since the epoch. */
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    /** USDC base units (6 decimals). */
    value: t.bigint().notNull(),
  }),
  (table) => ({
    toIndex: index().on(table.to),
    fromIndex: index().on(table.from),
  }),
);
