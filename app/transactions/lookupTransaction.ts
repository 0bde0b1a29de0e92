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
import {
  type DepositOwner,
  describeTransaction,
  type OurTransfer,
  type TransactionLookup,
} from "../../domain/transactionLookup.ts";
import type { CoreDeps, TransactionLookupSettings } from "../deps.ts";

/** How long a lookup waits for the chain before it answers "can't check right now". */
export const LOOKUP_CHAIN_TIMEOUT_MS = 3_000;

/**
 * Transaction lookups ("I paid — where is it?"): what Remit sees of a Base transaction, public
 * (`GET /api/transactions/{tx_hash}` and the hosted pages' "Paid but not showing?" box, which
 * share one per-IP budget, api/transactions/lookupTransaction.ts). Each lookup may cost the
 * chain's RPC two or three calls.
 */
export type TransactionLookupReader = {
  /** What Remit sees of transaction `hash`; `slug`: the caller's own invoice or link. */
  lookup: (hash: string, slug?: string) => Promise<TransactionLookup>;
};

export function transactionLookupReader(
  deps: Pick<CoreDeps, "db" | "rpcUrl" | "indexerSchema">,
  settings: Pick<TransactionLookupSettings, "confirmations">,
  reader?: TransactionReader,
): TransactionLookupReader {
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
  deps: Pick<CoreDeps, "db" | "indexerSchema">,
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
