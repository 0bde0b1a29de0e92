import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import {
  type TransactionLookupReader,
  transactionLookupReader,
} from "../../app/transactions/lookupTransaction.ts";
import type { TransactionReader } from "../../chain/transactionOnChain.ts";
import { clientAddress } from "../../domain/clientAddress.ts";
import { type RateDecision, RateLimiter } from "../../domain/rateLimiter.ts";
import type { AppDeps } from "../deps.ts";
import { NO_PROXIES } from "../middleware/rateLimit.ts";

/** Lookups per client IP and minute by default (RATE_LIMIT_TX_LOOKUP_PER_MIN). */
export const DEFAULT_LOOKUPS_PER_MIN = 30;

/**
 * Transaction lookups (app/transactions/lookupTransaction.ts), shared by `GET
 * /api/transactions/{tx_hash}` and the hosted pages' "Paid but not showing?" box, with one
 * per-IP budget for both: each lookup may cost the chain's RPC two or three calls.
 */
export type TransactionLookupService = TransactionLookupReader & {
  /** Charges the request's client IP (TRUST_PROXY/TRUSTED_PROXIES aware) one lookup. */
  take: (c: Context) => RateDecision | null;
};

export function createTransactionLookup(
  deps: Pick<AppDeps, "db" | "rpcUrl" | "indexerSchema" | "rateLimits" | "transactionLookup">,
  reader?: TransactionReader,
): TransactionLookupService {
  const settings = deps.transactionLookup ?? { confirmations: 1, perMinute: 0 };
  const proxies = deps.rateLimits?.trustedProxies ?? NO_PROXIES;
  // Budgets apply where the process sets its limits (not in tests of the app alone).
  const limiter =
    deps.rateLimits && settings.perMinute > 0
      ? new RateLimiter({ perMinute: settings.perMinute })
      : null;
  return {
    ...transactionLookupReader(deps, settings, reader),
    take: (c) => {
      if (!limiter) return null;
      const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket
        .remoteAddress;
      const key = clientAddress(
        peer,
        c.req.header("x-forwarded-for"),
        proxies.hops,
        proxies.isTrusted,
      );
      return limiter.take(key, Date.now());
    },
  };
}
