import {
  type Expression,
  type ExpressionBuilder,
  type QueryCreator,
  type SqlBool,
  sql,
} from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import { type Metadata, metadataFilterValues } from "../../domain/metadata.ts";
import { OVERDUE_STORED_STATUSES } from "../../domain/moneyRules.ts";
import type {
  ReportedInvoiceStatus,
  StoredInvoiceStatus,
  WalletType,
} from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";
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

/** What the invoice list filters on: a status as reported (`void` among them). */
export type InvoiceListStatus = ReportedInvoiceStatus | "void";

/** The invoice list's filters; each one given narrows the list (they combine with AND). */
export type InvoiceListFilters = CreatedFilter &
  /** The invoice's total at least / at most. */
  AmountFilter & {
    /** Any of these reported statuses (`overdue` derived, `draft`/`sent` then only when not due). */
    statuses?: readonly InvoiceListStatus[];
    /** Due on or after / on or before these dates (YYYY-MM-DD). */
    dueFrom?: string;
    dueTo?: string;
    /** A substring of the invoice number, vendor name or email, or a line item's description. */
    q?: string;
    /** Each key with this value (`metadata[order_id]=1042`: domain/metadata.ts metadataFilterValues). */
    metadata?: Record<string, string>;
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
  /** What its amounts (total, credited, lines) are in (migration 0041). */
  currency: Currency;
  total_amount: bigint;
  /** What its credit notes took off (migration 0040). */
  credited_amount: bigint;
  /** What the reconcile job last counted for the invoice, in USDC (0 before any payment). */
  received: bigint;
  /** Priced in a currency: the counted payments' conversions in it (null before any, or in USDC). */
  received_in_currency: bigint | null;
  /** What its confirmed refunds paid back, in USDC (0 without any). */
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
  /** The integrator's own keys (migration 0038); `{}` when none. */
  metadata: Metadata;
};

/**
 * Newest first (the index invoices_merchant_created: merchant, created_at, id); the export
 * walks it oldest first.
 */
export const INVOICE_ORDER: ListOrder = {
  kind: "invoices",
  moment: "i.created_at",
  id: "i.id",
  idType: "uuid",
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
 * The merchant's invoices with what each received and refunded: the columns the list and the
 * export both show (each selects its own besides).
 */
export function merchantInvoices(db: QueryCreator<Database>, merchantId: string) {
  return db
    .selectFrom("app.invoices as i")
    .leftJoin("app.payment_state as s", "s.deposit_address", "i.deposit_address")
    .select([
      "i.id",
      "i.invoice_number",
      "i.status",
      "i.vendor_name",
      "i.vendor_email",
      "i.currency",
      "i.total_amount",
      "i.credited_amount",
      "i.issue_date",
      "i.due_date",
      "i.deposit_address",
      "i.sent_at",
      "i.created_at",
      "i.metadata",
    ])
    .select(paymentTotals("invoice_id", "i.id", "s"))
    .select("s.received_in_currency")
    .where("i.merchant_id", "=", merchantId);
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
  let query = merchantInvoices(db, merchantId).select([
    "i.slug",
    "i.merchant_email",
    "i.wallet_type",
    "i.schedule_id",
  ]);
  const { statuses, today } = filters;
  if (statuses?.length)
    query = query.where((eb) =>
      eb.or(statuses.map((status) => statusCondition(eb, status, today))),
    );
  query = query
    .$call(inRange("i.created_at", { min: filters.createdFrom, before: filters.createdBefore }))
    .$call(inRange("i.total_amount", { min: filters.amountMin, max: filters.amountMax }));
  if (filters.dueFrom) query = query.where("i.due_date", ">=", filters.dueFrom);
  if (filters.dueTo) query = query.where("i.due_date", "<=", filters.dueTo);
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
  // Containment, which the GIN index invoices_metadata (migration 0038) answers.
  for (const [key, text] of Object.entries(filters.metadata ?? {}))
    query = query.where((eb) =>
      eb.or(
        metadataFilterValues(text).map(
          (value) =>
            sql<boolean>`${eb.ref("i.metadata")} @> ${JSON.stringify({ [key]: value })}::jsonb`,
        ),
      ),
    );
  return keysetPage(query, INVOICE_ORDER, page);
}
