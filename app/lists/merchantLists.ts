import { indexedHead } from "../../db/queries/indexer.ts";
import {
  type InvoiceListFilters,
  type InvoiceListRow,
  type InvoiceListStatus,
  listInvoices,
} from "../../db/queries/invoiceLists.ts";
import { type LinkListFilters, type LinkListRow, listLinks } from "../../db/queries/linkLists.ts";
import type { ListPage, ListResult } from "../../db/queries/listPage.ts";
import {
  listPayments,
  type PaymentListFilters,
  type PaymentListRow,
} from "../../db/queries/paymentLists.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { conversionsOfPayments, type PaymentConversion } from "../payments/paymentConversions.ts";

export type {
  InvoiceListFilters,
  InvoiceListRow,
  InvoiceListStatus,
  LinkListFilters,
  LinkListRow,
  ListPage,
  ListResult,
  PaymentListFilters,
  PaymentListRow,
};

/** A list query of db/queries, of one merchant's rows. */
type MerchantListQuery<Filters, Row> = (
  db: CoreDeps["db"],
  merchantId: string,
  filters: Filters,
  page: ListPage,
) => Promise<ListResult<Row>>;

/**
 * The actor's own list of `list`: the list query scoped to the actor's merchant (a 401 for
 * nobody in particular).
 */
export const ownList =
  <Filters, Row>(list: MerchantListQuery<Filters, Row>) =>
  (
    deps: Pick<CoreDeps, "db">,
    actor: Actor,
    filters: Filters,
    page: ListPage,
  ): Promise<ListResult<Row>> =>
    list(deps.db, ownMerchantId(actor.identity), filters, page);

/**
 * The actor's own lists, one keyset stack for every surface (the API's lists and exports, the
 * dashboard's pages): newest first, a page at a time.
 */
export const invoiceList = ownList(listInvoices);
export const linkList = ownList(listLinks);

/** A listed payment, with what it counted for when its invoice or link is priced in a currency. */
export type PaymentListItem = PaymentListRow & { conversion: PaymentConversion | null };

/**
 * The actor's payments, each with its conversion (app/payments/paymentConversions.ts): null for
 * a payment in USDC and for one whose rate is not known yet.
 */
export async function paymentList(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  filters: PaymentListFilters,
  page: ListPage,
): Promise<ListResult<PaymentListItem>> {
  const result = await ownList(listPayments)(deps, actor, filters, page);
  const conversions = await conversionsOfPayments(deps.db, result.rows);
  return {
    ...result,
    rows: result.rows.map((row) => ({ ...row, conversion: conversions.get(row.id) ?? null })),
  };
}

/** The newest block the indexer has seen: how many confirmations a listed payment has. */
export const indexedHeadOf = (deps: Pick<CoreDeps, "db" | "indexerSchema">) =>
  indexedHead(deps.db, deps.indexerSchema);
