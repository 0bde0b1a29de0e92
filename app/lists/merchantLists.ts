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
export const paymentList = ownList(listPayments);

/** The newest block the indexer has seen: how many confirmations a listed payment has. */
export const indexedHeadOf = (deps: Pick<CoreDeps, "db" | "indexerSchema">) =>
  indexedHead(deps.db, deps.indexerSchema);
