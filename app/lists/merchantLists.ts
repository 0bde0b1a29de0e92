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

/**
 * The actor's own lists, one keyset stack for every surface (the API's lists and exports, the
 * dashboard's pages): newest first, a page at a time.
 */
export const invoiceList = (
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  filters: InvoiceListFilters,
  page: ListPage,
): Promise<ListResult<InvoiceListRow>> =>
  listInvoices(deps.db, ownMerchantId(actor.identity), filters, page);

export const linkList = (
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  filters: LinkListFilters,
  page: ListPage,
): Promise<ListResult<LinkListRow>> =>
  listLinks(deps.db, ownMerchantId(actor.identity), filters, page);

export const paymentList = (
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  filters: PaymentListFilters,
  page: ListPage,
): Promise<ListResult<PaymentListRow>> =>
  listPayments(deps.db, ownMerchantId(actor.identity), filters, page);

/** The newest block the indexer has seen: how many confirmations a listed payment has. */
export const indexedHeadOf = (deps: Pick<CoreDeps, "db" | "indexerSchema">) =>
  indexedHead(deps.db, deps.indexerSchema);
