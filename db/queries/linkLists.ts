import { sql } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { LinkStatus, WalletType } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";
import {
  type AmountFilter,
  type CreatedFilter,
  containsPattern,
  inRange,
  keysetPage,
  type ListOrder,
  type ListPage,
  type ListResult,
  paymentTotals,
} from "./listPage.ts";

/** The payment-link list's filters; each one given narrows the list (they combine with AND). */
export type LinkListFilters = CreatedFilter &
  /** The amount asked at least / at most. */
  AmountFilter & {
    statuses?: readonly LinkStatus[];
    /** A substring of the slug or the description. */
    q?: string;
  };

export type LinkListRow = {
  id: string;
  slug: string;
  status: LinkStatus;
  /** In `currency`. */
  amount: bigint;
  currency: Currency;
  description: string;
  /** What the reconcile job last counted for the link, in USDC (0 before any payment). */
  received: bigint;
  /** Priced in a currency: what its converted payments counted for in it (null before any). */
  received_in_currency: bigint | null;
  /** What its confirmed refunds paid back (0 without any). */
  refunded: bigint;
  merchant_name: string | null;
  wallet_type: WalletType;
  wallet_address: string;
  deposit_address: string;
  metadata: Record<string, string | number | boolean | null>;
  created_at: Date;
  list_at: string;
};

/** Newest first: the index payment_links_merchant_created (merchant, created_at, id). */
const LINK_ORDER: ListOrder = { kind: "links", moment: "l.created_at", id: "l.id", idType: "uuid" };

/** A page of the merchant's payment links, newest first (created_at, then id), filtered. */
export async function listLinks(
  db: Executor,
  merchantId: string,
  filters: LinkListFilters,
  page: ListPage,
): Promise<ListResult<LinkListRow>> {
  let query = db
    .selectFrom("app.payment_links as l")
    .leftJoin("app.payment_state as s", "s.deposit_address", "l.deposit_address")
    .select([
      "l.id",
      "l.slug",
      "l.status",
      "l.amount",
      "l.currency",
      "l.description",
      "l.merchant_name",
      "l.wallet_type",
      "l.wallet_address",
      "l.deposit_address",
      "l.metadata",
      "l.created_at",
    ])
    .select(paymentTotals("link_id", "l.id", "s"))
    .select("s.received_in_currency")
    .where("l.merchant_id", "=", merchantId);
  if (filters.statuses?.length) query = query.where("l.status", "in", filters.statuses);
  query = query
    .$call(inRange("l.created_at", { min: filters.createdFrom, before: filters.createdBefore }))
    .$call(inRange("l.amount", { min: filters.amountMin, max: filters.amountMax }));
  if (filters.q) {
    // The expression of the trigram index payment_links_search (migration 0020), verbatim.
    const pattern = containsPattern(filters.q);
    query = query.where(
      sql<boolean>`(${sql.ref("l.slug")} || ' ' || ${sql.ref("l.description")}) ilike ${pattern}`,
    );
  }
  return keysetPage(query, LINK_ORDER, page);
}
