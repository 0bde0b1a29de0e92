import { createConfig } from "ponder";
import { usdcAbi } from "./abis/usdc.ts";
import { USDC_ADDRESS } from "./domain/constants.ts";

// `npm start` (platform/children.ts) resolves these from Remit's settings. The connection
// string stays out of this file on purpose: Ponder hashes the serialized config into its build
// id, and Ponder reads DATABASE_URL itself.
// Several comma-separated RPCs become Ponder's own list: it balances requests across them, takes
// a failing or rate-limited one out of rotation with backoff, and retries the call elsewhere.
const rpcUrls = (process.env.PONDER_RPC_URL_8453 ?? "")
  .split(",")
  .map((url) => url.trim())
  .filter((url) => url !== "");
// A local anvil listed several times (PONDER_RPC_FANOUT, platform/children.ts): Ponder's start-up
// budget of requests per second is per listed RPC, and anvil has no limit of its own.
const fanout = Number(process.env.PONDER_RPC_FANOUT ?? 1);
const rpc =
  rpcUrls.length > 1
    ? rpcUrls
    : fanout > 1 && rpcUrls[0]
      ? Array.from({ length: fanout }, () => rpcUrls[0] as string)
      : rpcUrls[0];
const pollingInterval = Number(process.env.PONDER_POLLING_INTERVAL ?? 100);
const startBlock = Number(process.env.PONDER_START_BLOCK ?? 0);
// New blocks pushed over WebSocket (eth_subscribe newHeads) instead of polled: no wait of up to
// a polling interval, and no full block fetched every interval. Ponder falls back to polling
// `rpc` by itself after repeated WebSocket failures (BASE_WS_URL in docs/operations.md).
const ws = process.env.PONDER_WS_URL_8453 || undefined;

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
