import { z } from "zod";
import { address, optionalUrl, port, rpcUrlList } from "./values.ts";

/** Which chain Remit follows (simulated, fork or mainnet), how, and how the indexer serves it. Part of internal/env.ts's schema; `.env.example` documents each. */
export const chainSettings = {
  /** Mainnet mode: follow real Base through these RPCs; no anvil is started. */
  BASE_RPC_URL: rpcUrlList,
  /** Fork mode: anvil forks this RPC (real Base, or any chain 8453 with USDC). */
  BASE_FORK_URL: optionalUrl,
  /** Fork mode: the block to fork at. Default: the upstream's latest at the first start. */
  BASE_FORK_BLOCK_NUMBER: z.coerce.number().int().min(1).optional(),
  /** Fork mode: an address holding USDC upstream; impersonated to fund the dev accounts. */
  USDC_WHALE: address.optional(),
  ANVIL_PORT: port.default(8545),
  ANVIL_BLOCK_TIME: z.coerce.number().int().min(0).max(60).default(1),
  INDEXER_PORT: port.default(42069),
  /** Interface the indexer's HTTP server (GraphQL, SQL, Ponder's metrics) binds to: loopback unless opened on purpose. */
  INDEXER_HOST: z.string().min(1).default("127.0.0.1"),
  INDEXER_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,40}$/, "lowercase letters, digits and _ only")
    .optional(),
  /** Milliseconds between the indexer's polls for new blocks; Ponder's minimum is 100. */
  PONDER_POLLING_INTERVAL: z.coerce.number().int().min(100).max(60_000).optional(),
  START_BLOCK: z.coerce.number().int().min(0).optional(),
  /**
   * The indexer learns of new blocks from this WebSocket RPC (eth_subscribe newHeads) instead
   * of polling BASE_RPC_URL every PONDER_POLLING_INTERVAL; Ponder falls back to polling by
   * itself when it fails. Default: the local anvil's own (it serves WebSocket on its HTTP
   * port) on the simulated chain and in fork mode, none (polling) in mainnet mode; `off`
   * polls everywhere (docs/operations.md, "How the indexer hears of new blocks").
   */
  BASE_WS_URL: z.union([z.literal("off"), z.url({ protocol: /^wss?$/ })]).optional(),
  /** Set by `npm start` for its children: the JSON-RPC URL(s) of the chain in use. */
  CHAIN_RPC_URL: rpcUrlList,
  /** Blocks a transfer needs (its own included) before it counts. Default: 1 locally, 3 on Base. */
  CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).optional(),
  /**
   * Block explorer for transaction links in emails and pages. Default: basescan.org in
   * mainnet mode only; a local or forked chain's transactions are on no public explorer.
   */
  EXPLORER_URL: z.url().optional(),
};

/** The settings each chain mode needs, and the ones it cannot combine. */
export function requireModeSettings(
  env: {
    TEST_CLOCK?: "on" | "off";
    BASE_RPC_URL?: string;
    BASE_FORK_URL?: string;
    BASE_FORK_BLOCK_NUMBER?: number;
    USDC_WHALE?: string;
    START_BLOCK?: number;
  },
  context: z.RefinementCtx,
): void {
  const problem = (path: string, message: string) =>
    context.addIssue({ code: "custom", path: [path], message });
  if (env.BASE_RPC_URL && env.BASE_FORK_URL)
    problem("BASE_FORK_URL", "cannot be combined with BASE_RPC_URL: fork mode or mainnet mode");
  if (env.BASE_RPC_URL && env.START_BLOCK === undefined)
    problem(
      "START_BLOCK",
      "is required with BASE_RPC_URL: the go-live block, so a new deployment does not index years of USDC transfers",
    );
  if (env.BASE_FORK_URL && !env.USDC_WHALE)
    problem(
      "USDC_WHALE",
      "is required with BASE_FORK_URL: an address holding USDC on the forked chain, impersonated to fund the dev accounts",
    );
  if (!env.BASE_FORK_URL && env.BASE_FORK_BLOCK_NUMBER !== undefined)
    problem("BASE_FORK_BLOCK_NUMBER", "only applies with BASE_FORK_URL");
  if (env.BASE_RPC_URL && env.TEST_CLOCK === "on")
    problem("TEST_CLOCK", "is a development and test setting: refused with BASE_RPC_URL");
}
