import { formatUsdc } from "./money.ts";

/**
 * What Remit can say about a Base transaction someone says paid it ("I paid — where is
 * it?"), from the least to the most that happened:
 * - `unavailable`: the chain could not be asked just now, and the index knows nothing of it;
 * - `not_found`: Base has no such transaction (another network, a typo, or not sent yet);
 * - `pending`: the node knows it, not mined yet;
 * - `failed`: mined, but it reverted: nothing moved;
 * - `not_usdc`: mined, moved no USDC (another token, or plain ETH);
 * - `not_ours`: moved USDC, to no deposit address of Remit's;
 * - `confirming`: paid a Remit invoice or link, waiting for confirmations or to be counted;
 * - `counted`: paid a Remit invoice or link, and counted in its status.
 */
export const TRANSACTION_LOOKUP_STATES = [
  "unavailable",
  "not_found",
  "pending",
  "failed",
  "not_usdc",
  "not_ours",
  "confirming",
  "counted",
] as const;
export type TransactionLookupState = (typeof TRANSACTION_LOOKUP_STATES)[number];

/** A strict transaction hash: 0x and 64 hex digits. */
export const TX_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

/** What a deposit address of Remit's belongs to, as far as a stranger may know it. */
export type DepositOwner =
  | { kind: "invoice"; invoiceNumber: string; slug: string }
  | { kind: "link"; slug: string };

/** One USDC transfer of the transaction to a deposit address of Remit's. */
export type OurTransfer = {
  /** `<tx hash>-<log index>`, as the indexer and payment_state name it. */
  id: string;
  value: bigint;
  blockNumber: bigint;
  owner: DepositOwner;
  /** Counted in its owner's payment state by reconcile. */
  counted: boolean;
};

/** What the chain says of the transaction (asked only when the index knows nothing of it). */
export type ChainView =
  | { kind: "unavailable" }
  | { kind: "not_found" }
  | { kind: "pending" }
  | {
      kind: "mined";
      success: boolean;
      blockNumber: bigint;
      /** How many USDC Transfer logs (Circle's contract) the receipt holds, to anyone. */
      usdcTransfers: number;
    };

export type LookupFacts = {
  /** The transaction's USDC transfers to Remit's deposit addresses (index first, else chain). */
  ours: readonly OurTransfer[];
  /** The head confirmations are counted from: the indexer's (or the chain's) latest block. */
  head: bigint | null;
  /** CONFIRMATIONS. */
  required: number;
  /** Null when the index answered and the chain was not asked. */
  chain: ChainView | null;
  /** The caller's own invoice's or link's slug, if it named one (`?slug=`). */
  slug?: string;
};

/** One payment of the answer. A link is named only to a caller who named it (docs/api.md). */
export type LookupTransfer = {
  amount: string;
  to_kind: "invoice" | "link";
  invoice_number?: string;
  /** Present when the caller named a slug: whether this transfer paid that invoice or link. */
  to_this?: boolean;
  confirmations: number;
  required_confirmations: number;
  counted: boolean;
};

export type TransactionLookup = {
  state: TransactionLookupState;
  transfers: LookupTransfer[];
  message: string;
};

const MESSAGES: Record<TransactionLookupState, string> = {
  unavailable:
    "Remit cannot reach the Base network right now to check this transaction; try again in a minute.",
  not_found:
    "Base has no transaction with this hash. If you paid on another network (Ethereum, Arbitrum, Polygon, …), the money is there, not on Base, and Remit cannot see it; if you just sent it, wait a few seconds and check again.",
  pending: "This transaction is waiting to be included in a Base block. Check again shortly.",
  failed:
    "This transaction failed on Base (it reverted): no USDC moved. Your wallet may have run out of gas; send the payment again.",
  not_usdc:
    "This transaction moved no USDC: it sent another token or ETH. Only USDC on Base pays an invoice or link.",
  not_ours:
    "This transaction sent USDC to an address that is not a Remit payment address. Check the address you paid against the one on the page.",
  confirming:
    "Remit sees this payment and is waiting for confirmations on Base; the status updates by itself.",
  counted: "Remit has counted this payment.",
};

/** Confirmations of a transfer mined in `block` with `head` the latest block (its own included). */
export const confirmationsOf = (block: bigint, head: bigint | null): number =>
  head === null || head < block ? 0 : Number(head - block + 1n);

/**
 * The answer of a transaction lookup: a pure function of what the index and the chain say.
 * The index wins when it holds a payment (it is what statuses are derived from); otherwise the
 * chain's view decides, and a transfer to a deposit address the indexer has not reached yet is
 * `confirming`. Nothing about the merchant is in it: amounts and confirmations are public on
 * chain, an invoice number is a per-merchant counter, and a link is only said to be the
 * caller's or not (its slug would open the checkout page, which names the merchant).
 *
 * @example describeTransaction({ ours: [], head: null, required: 1, chain: { kind: "not_found" } }).state // "not_found"
 */
export function describeTransaction(facts: LookupFacts): TransactionLookup {
  const state = stateOf(facts);
  const transfers = facts.ours.map((t) => presentTransfer(t, facts));
  return { state, transfers, message: MESSAGES[state] };
}

function stateOf(facts: LookupFacts): TransactionLookupState {
  if (facts.ours.length > 0) return facts.ours.every((t) => t.counted) ? "counted" : "confirming";
  const chain = facts.chain ?? { kind: "unavailable" };
  if (chain.kind !== "mined") return chain.kind;
  if (!chain.success) return "failed";
  return chain.usdcTransfers === 0 ? "not_usdc" : "not_ours";
}

function presentTransfer(t: OurTransfer, facts: LookupFacts): LookupTransfer {
  return {
    amount: formatUsdc(t.value),
    to_kind: t.owner.kind,
    ...(t.owner.kind === "invoice" ? { invoice_number: t.owner.invoiceNumber } : {}),
    ...(facts.slug !== undefined ? { to_this: t.owner.slug === facts.slug } : {}),
    confirmations: confirmationsOf(t.blockNumber, facts.head),
    required_confirmations: facts.required,
    counted: t.counted,
  };
}
