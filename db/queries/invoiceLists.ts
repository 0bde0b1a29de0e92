import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import { OVERDUE_STORED_STATUSES } from "../../domain/moneyRules.ts";
import type {
  ReportedInvoiceStatus,
  StoredInvoiceStatus,
  WalletType,
} from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";
import {
  beforeKey,
  confirmedRefundsOf,
  containsPattern,
  type ListPage,
  type ListResult,
  listMoment,
  toPage,
} from "./listPage.ts";

/** What the invoice list filters on: a status as reported (`void` among them). */
export type InvoiceListStatus = ReportedInvoiceStatus | "void";

/** The invoice list's filters; each one given narrows the list (they combine with AND). */
export type InvoiceListFilters = {
  /** Any of these reported statuses (`overdue` derived, `draft`/`sent` then only when not due). */
  statuses?: readonly InvoiceListStatus[];
  /** Created at or after this moment. */
  createdFrom?: Date;
  /** Created before this moment. */
  createdBefore?: Date;
  /** Due on or after / on or before these dates (YYYY-MM-DD). */
  dueFrom?: string;
  dueTo?: string;
  /** Total at least / at most (USDC base units). */
  amountMin?: bigint;
  amountMax?: bigint;
  /** A substring of the invoice number, vendor name or email, or a line item's description. */
  q?: string;
  /** Today's date in UTC (YYYY-MM-DD), which `overdue` is relative to. */
  today: string;
};

/**
 * One invoice of the list: what a row of a list shows, without line items or transfers. The
 * API's list and the dashboard's both read it.
 */
export type InvoiceListRow = {
  id: string;
  invoice_number: string;
  slug: string;
  status: StoredInvoiceStatus;
  merchant_email: string;
  vendor_name: string;
  vendor_email: string;
  total_amount: bigint;
  /** What the reconcile job last counted for the invoice (0 before any payment). */
  received: bigint;
  /** What its confirmed refunds paid back (0 without any). */
  refunded: bigint;
  issue_date: string;
  due_date: string;
  wallet_type: WalletType;
  deposit_address: string;
  sent_at: Date | null;
  created_at: Date;
  /** created_at to the microsecond: the list key's moment. */
  list_at: string;
  /** The schedule that issued it (migration 0033); null for one made by hand. */
  schedule_id: string | null;
};

type Eb = ExpressionBuilder<Database & { i: Database["app.invoices"] }, "i">;

/**
 * The condition for one reported status: domain/moneyRules.ts isOverdue in SQL (its statuses,
 * past the due date), and draft and sent then exclude what is overdue.
 */
function statusCondition(eb: Eb, status: InvoiceListStatus, today: string): Expression<SqlBool> {
  if (status === "overdue")
    return eb.and([eb("i.status", "in", OVERDUE_STORED_STATUSES), eb("i.due_date", "<", today)]);
  if ((OVERDUE_STORED_STATUSES as readonly string[]).includes(status))
    return eb.and([eb("i.status", "=", status), eb("i.due_date", ">=", today)]);
  // Every other reported status is stored as it is reported.
  return eb("i.status", "=", status);
}

/**
 * A page of the merchant's invoices, newest first (created_at, then id), filtered. Only this
 * merchant's rows are ever read: the merchant is the first column of every index walked.
 */
export async function listInvoices(
  db: Executor,
  merchantId: string,
  filters: InvoiceListFilters,
  page: ListPage,
): Promise<ListResult<InvoiceListRow>> {
  let query = db
    .selectFrom("app.invoices as i")
    .leftJoin("app.payment_state as s", "s.deposit_address", "i.deposit_address")
    .select([
      "i.id",
      "i.invoice_number",
      "i.slug",
      "i.status",
      "i.merchant_email",
      "i.vendor_name",
      "i.vendor_email",
      "i.total_amount",
      "i.issue_date",
      "i.due_date",
      "i.wallet_type",
      "i.deposit_address",
      "i.sent_at",
      "i.created_at",
      "i.schedule_id",
    ])
    .select((eb) => [
      eb.fn.coalesce("s.received", sql<bigint>`0::bigint`).as("received"),
      confirmedRefundsOf("invoice_id", "i.id").as("refunded"),
      listMoment("i.created_at").as("list_at"),
    ])
    .where("i.merchant_id", "=", merchantId);
  const { statuses, today } = filters;
  if (statuses?.length)
    query = query.where((eb) =>
      eb.or(statuses.map((status) => statusCondition(eb, status, today))),
    );
  if (filters.createdFrom) query = query.where("i.created_at", ">=", filters.createdFrom);
  if (filters.createdBefore) query = query.where("i.created_at", "<", filters.createdBefore);
  if (filters.dueFrom) query = query.where("i.due_date", ">=", filters.dueFrom);
  if (filters.dueTo) query = query.where("i.due_date", "<=", filters.dueTo);
  if (filters.amountMin !== undefined)
    query = query.where("i.total_amount", ">=", filters.amountMin);
  if (filters.amountMax !== undefined)
    query = query.where("i.total_amount", "<=", filters.amountMax);
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    // The search document (migration 0020) of the same merchant: one trigram index answers it.
    query = query.where("i.id", "in", (eb) =>
      eb
        .selectFrom("app.invoice_search as f")
        .select("f.invoice_id")
        .where("f.merchant_id", "=", merchantId)
        .where("f.document", "ilike", pattern),
    );
  }
  if (page.after) query = query.where(beforeKey("i.created_at", "i.id", page.after, "uuid"));
  const rows = await query
    .orderBy("i.created_at", "desc")
    .orderBy("i.id", "desc")
    .limit(page.limit + 1)
    .execute();
  return toPage("invoices", rows, page.limit, (row) => row.id);
}
