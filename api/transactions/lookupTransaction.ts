import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { createPublicClient, type Hash } from "viem";
import { base } from "viem/chains";
import { rpcTransport } from "../../chain/rpc.ts";
import {
  readTransactionOnChain,
  type TransactionOnChain,
  type TransactionReader,
} from "../../chain/transactionOnChain.ts";
import { indexedHead } from "../../db/queries/indexer.ts";
import {
  type IndexedPayment,
  indexedPaymentsOfTransaction,
  ownersOfDeposits,
} from "../../db/queries/transactionLookup.ts";
import { clientAddress } from "../../domain/clientAddress.ts";
import { type RateDecision, RateLimiter } from "../../domain/rateLimiter.ts";
import {
  type DepositOwner,
  describeTransaction,
  type OurTransfer,
  type TransactionLookup,
} from "../../domain/transactionLookup.ts";
import type { AppDeps } from "../deps.ts";
import { NO_PROXIES } from "../middleware/rateLimit.ts";

/** How long a lookup waits for the chain before it answers "can't check right now". */
export const LOOKUP_CHAIN_TIMEOUT_MS = 3_000;

/** Lookups per client IP and minute by default (RATE_LIMIT_TX_LOOKUP_PER_MIN). */
export const DEFAULT_LOOKUPS_PER_MIN = 30;

/**
 * Transaction lookups ("I paid — where is it?"), shared by `GET /api/transactions/{tx_hash}`
 * and the hosted pages' "Paid but not showing?" box, with one per-IP budget for both: each
 * lookup may cost the chain's RPC two or three calls.
 */
export type TransactionLookupService = {
  /** Charges the request's client IP (TRUST_PROXY/TRUSTED_PROXIES aware) one lookup. */
  take: (c: Context) => RateDecision | null;
  /** What Remit sees of transaction `hash`; `slug`: the caller's own invoice or link. */
  lookup: (hash: string, slug?: string) => Promise<TransactionLookup>;
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
  let client = reader;
  // Made on first use: the app is also built without a chain (its OpenAPI document alone).
  const chain = () => {
    // No retries: a lookup answers within seconds or says it cannot check.
    client ??= createPublicClient({
      chain: base,
      transport: rpcTransport(deps.rpcUrl, { retryCount: 0 }),
    }) as unknown as TransactionReader;
    return client;
  };

  return {
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
    lookup: async (hash, slug) => {
      const onChain = await readTransactionOnChain(
        chain(),
        hash.toLowerCase() as Hash,
        LOOKUP_CHAIN_TIMEOUT_MS,
      );
      const { ours, head } = await ourTransfers(deps, hash, onChain);
      return describeTransaction({
        ours,
        head,
        required: settings.confirmations,
        chain: onChain.view,
        ...(slug === undefined ? {} : { slug }),
      });
    },
  };
}

/**
 * The transaction's payments to Remit's deposit addresses. The index answers when it holds
 * them (confirmations from the indexer's head, as reconcile counts them); a payment the chain
 * shows but the indexer has not reached yet is taken from the receipt, uncounted. When the
 * chain cannot be asked, the index alone is searched by hash.
 */
async function ourTransfers(
  deps: Pick<AppDeps, "db" | "indexerSchema">,
  hash: string,
  onChain: TransactionOnChain,
): Promise<{ ours: OurTransfer[]; head: bigint | null }> {
  const view = onChain.view;
  if (view.kind === "not_found" || view.kind === "pending") return { ours: [], head: null };
  if (view.kind === "mined" && !view.success) return { ours: [], head: null };
  const recipients =
    view.kind === "mined" ? [...new Set(onChain.usdcTransfers.map((t) => t.to))] : null;
  const owners = recipients ? await ownersOfDeposits(deps.db, recipients) : null;
  const indexed = await indexedPaymentsOfTransaction(
    deps.db,
    deps.indexerSchema,
    hash,
    owners ? [...owners.keys()] : null,
  );
  if (indexed.length > 0) {
    const known =
      owners ??
      (await ownersOfDeposits(
        deps.db,
        indexed.map((t) => t.to),
      ));
    return {
      ours: withOwners(indexed, known),
      head: await indexedHead(deps.db, deps.indexerSchema),
    };
  }
  if (view.kind !== "mined" || !owners) return { ours: [], head: null };
  const fromReceipt = onChain.usdcTransfers
    .filter((t) => owners.has(t.to))
    .map((t) => ({
      id: `${hash.toLowerCase()}-${t.logIndex}`,
      to: t.to,
      value: t.value,
      blockNumber: view.blockNumber,
      counted: false,
    }));
  return { ours: withOwners(fromReceipt, owners), head: onChain.head };
}

const withOwners = (payments: IndexedPayment[], owners: Map<string, DepositOwner>) =>
  payments.flatMap((p) => {
    const owner = owners.get(p.to);
    return owner ? [{ ...p, owner }] : [];
  });
