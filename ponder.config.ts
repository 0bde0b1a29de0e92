import { createConfig } from "ponder";
import { usdcAbi } from "./abis/usdc.ts";
import { USDC_ADDRESS } from "./domain/constants.ts";
import { indexerSettings } from "./indexer/settings.ts";

// `npm start` (platform/children.ts) resolves these from Remit's settings. The connection
// string stays out of this file on purpose: Ponder hashes the serialized config into its build
// id, and Ponder reads DATABASE_URL itself.
// Parsed once with zod (indexer/settings.ts): several comma-separated RPCs become Ponder's own
// list (it balances requests across them and retries a failing one elsewhere), one local anvil
// is listed PONDER_RPC_FANOUT times (Ponder's start-up request budget is per listed RPC), and
// PONDER_WS_URL_8453 pushes new blocks over WebSocket (Ponder falls back to polling by itself).
const { rpc, ws, pollingInterval, startBlock } = indexerSettings();

export default createConfig({
  database: { kind: "postgres" },
  chains: {
    // Ponder would otherwise keep every USDC log and transaction on Base in ponder_sync
    // (~1.3 kB a transfer, gigabytes a day) although we keep only our own few: with the cache
    // off, realtime indexing stores nothing for unrelated transfers (test/indexer.test.ts).
    base: { id: 8453, rpc, ...(ws ? { ws } : {}), pollingInterval, disableCache: true },
  },
  contracts: {
    // Every USDC Transfer is read; src/usdcTransfer.ts keeps only those that touch one of our
    // deposit addresses (Ponder cannot filter `to` by a set that grows at runtime).
    USDC: { chain: "base", abi: usdcAbi, address: USDC_ADDRESS, startBlock },
  },
});
