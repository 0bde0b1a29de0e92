import {
  type Expression,
  type ExpressionBuilder,
  type QueryCreator,
  type RawBuilder,
  type SqlBool,
  sql,
} from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { ListKey } from "../../domain/listCursor.ts";
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
  keysetPage,
  type ListOrder,
  type ListPage,
  type ListResult,
  listMoment,
  pastKey,
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
 * The list's filters other than `q`, as one condition on the invoice `i` (true when none): the
 * page's query and the search's own queries (searchHits) narrow by the same rule.
 */
function filtersCondition(eb: Eb, filters: InvoiceListFilters): Expression<SqlBool> {
  const { statuses, today } = filters;
  const conditions: Expression<SqlBool>[] = [];
  if (statuses?.length)
    conditions.push(eb.or(statuses.map((status) => statusCondition(eb, status, today))));
  if (filters.createdFrom) conditions.push(eb("i.created_at", ">=", filters.createdFrom));
  if (filters.createdBefore) conditions.push(eb("i.created_at", "<", filters.createdBefore));
  if (filters.amountMin !== undefined)
    conditions.push(eb("i.total_amount", ">=", filters.amountMin));
  if (filters.amountMax !== undefined)
    conditions.push(eb("i.total_amount", "<=", filters.amountMax));
  if (filters.dueFrom) conditions.push(eb("i.due_date", ">=", filters.dueFrom));
  if (filters.dueTo) conditions.push(eb("i.due_date", "<=", filters.dueTo));
  // Containment, which the GIN index invoices_metadata (migration 0038) answers.
  for (const [key, text] of Object.entries(filters.metadata ?? {}))
    conditions.push(
      eb.or(
        metadataFilterValues(text).map(
          (value) =>
            sql<boolean>`${eb.ref("i.metadata")} @> ${JSON.stringify({ [key]: value })}::jsonb`,
        ),
      ),
    );
  return eb.and(conditions);
}

/**
 * How many of the merchant's newest invoices (past the cursor) a search reads first: a term
 * that many invoices match fills its page among them (in a few milliseconds), where its index
 * keys would hand back every match to be sorted.
 */
export const SEARCH_WALK_ROWS = 300;

/**
 * How many matches a search takes from its index keys before it calls the term common and reads
 * the invoices newest first instead: sorting the matches costs what they number, reading costs
 * what the page needs, which a common term fills early.
 */
export const SEARCH_MATCH_CAP = 2000;

type SearchStep = { merchantId: string; filters: InvoiceListFilters; term: string };

/** The merchant's invoices past `after` that the list's filters (not `q`) keep. */
function filteredInvoices(
  db: Executor,
  { merchantId, filters }: SearchStep,
  after: ListKey | null,
) {
  const query = db
    .selectFrom("app.invoices as i")
    .where("i.merchant_id", "=", merchantId)
    .where((eb) => filtersCondition(eb, filters));
  return after ? query.where(pastKey(INVOICE_ORDER, after, "desc")) : query;
}

/** Whether the invoice in `idColumn` has the term in its search document (migration 0020). */
function documentHas(idColumn: string, term: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from app.invoice_search f where f.invoice_id = ${sql.ref(idColumn)} and f.document ilike ${containsPattern(term)})`;
}

/**
 * The ids of a searched page (`limit + 1` at most, newest first, past the cursor). None of its
 * costs rests on the planner's guess of how many rows an `ILIKE '%…%'` matches (a fixed guess,
 * not a statistic: docs/benchmarks.md, "Search"):
 *
 * - a rare term (one of its index keys, migration 0048, not among the index's most common): the
 *   matches of its keys, SEARCH_MATCH_CAP at most, sorted;
 * - a common term: first the merchant's newest SEARCH_WALK_ROWS invoices, each looked up in its
 *   search document, then, for what they did not fill, older matches of its least common key;
 * - more matches than the cap, or no keys (under three letters): the invoices read on, newest
 *   first, until the page is full.
 */
async function searchHits(db: Executor, step: SearchStep, page: ListPage): Promise<string[]> {
  const want = page.limit + 1;
  const { keys, common } = await sql<{ keys: string[]; common: boolean }>`
    select keys, common from app.search_term_keys(${step.merchantId}, ${step.term})`
    .execute(db)
    .then((result) => result.rows[0] ?? { keys: [], common: false });
  let hits: string[] = [];
  let after = page.after ?? null;
  if (common || keys.length === 0) {
    const walked = await walkNewest(db, step, after);
    hits = walked.filter((row) => row.hit).map((row) => row.id);
    const last = walked.at(-1);
    if (hits.length >= want || walked.length < SEARCH_WALK_ROWS || !last)
      return hits.slice(0, want);
    after = { at: last.at, id: last.id };
  }
  const more = want - hits.length;
  const keyed = keys.length > 0 ? await keyedMatches(db, step, keys, after, more) : null;
  return [...hits, ...(keyed ?? (await readOn(db, step, after, more)))];
}

/** The newest SEARCH_WALK_ROWS of the filtered invoices past `after`, each with whether it matches. */
function walkNewest(db: Executor, step: SearchStep, after: ListKey | null) {
  return db
    .with(
      (cte) => cte("walked").materialized(),
      () =>
        filteredInvoices(db, step, after)
          .select(["i.id", "i.created_at"])
          .orderBy("i.created_at", "desc")
          .orderBy("i.id", "desc")
          .limit(SEARCH_WALK_ROWS),
    )
    .selectFrom("walked")
    .select([
      "walked.id",
      listMoment("walked.created_at").as("at"),
      documentHas("walked.id", step.term).as("hit"),
    ])
    .orderBy("walked.created_at", "desc")
    .orderBy("walked.id", "desc")
    .execute();
}

/**
 * The first `limit` ids, newest first past `after`, of the filtered invoices whose search rows
 * have all of `keys` and the term; null when more than SEARCH_MATCH_CAP match (then reading the
 * invoices in order finds the page sooner than sorting every match).
 */
async function keyedMatches(
  db: Executor,
  step: SearchStep,
  keys: string[],
  after: ListKey | null,
  limit: number,
): Promise<string[] | null> {
  const found = await db
    .with(
      (cte) => cte("matched").materialized(),
      (qc) => {
        const matched = qc
          .selectFrom("app.invoice_search as f")
          .select(["f.invoice_id as id", "f.created_at"])
          .where(sql<boolean>`app.search_keys(f.merchant_id, f.document) @> ${keys}::text[]`)
          .where("f.merchant_id", "=", step.merchantId)
          .where("f.document", "ilike", containsPattern(step.term))
          .limit(SEARCH_MATCH_CAP + 1);
        const order = { ...INVOICE_ORDER, moment: "f.created_at", id: "f.invoice_id" };
        return after ? matched.where(pastKey(order, after, "desc")) : matched;
      },
    )
    .selectNoFrom((eb) => [
      eb.selectFrom("matched").select(eb.fn.countAll<number>().as("n")).as("matched"),
      sql<string[]>`array(${eb
        .selectFrom("matched as m")
        .innerJoin("app.invoices as i", "i.id", "m.id")
        .select("m.id")
        .where((inner) => filtersCondition(inner, step.filters))
        .orderBy("m.created_at", "desc")
        .orderBy("m.id", "desc")
        .limit(limit)})`.as("ids"),
    ])
    .executeTakeFirstOrThrow();
  return Number(found.matched) <= SEARCH_MATCH_CAP ? found.ids : null;
}

/** The first `limit` matching ids of the filtered invoices past `after`, read newest first. */
async function readOn(db: Executor, step: SearchStep, after: ListKey | null, limit: number) {
  const rows = await filteredInvoices(db, step, after)
    .select("i.id")
    .where(documentHas("i.id", step.term))
    .orderBy("i.created_at", "desc")
    .orderBy("i.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
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
  const query = merchantInvoices(db, merchantId).select([
    "i.slug",
    "i.merchant_email",
    "i.wallet_type",
    "i.schedule_id",
  ]);
  if (!filters.q)
    return keysetPage(
      query.where((eb) => filtersCondition(eb, filters)),
      INVOICE_ORDER,
      page,
    );
  // A search's page is the ids searchHits found, its filters and cursor applied there. They are
  // not applied again: its steps are statements of their own, and an invoice paid between them
  // would drop out of the page, which then reads as the last (one row fewer than `limit + 1`).
  const ids = await searchHits(db, { merchantId, filters, term: filters.q }, page);
  return keysetPage(query.where(sql<boolean>`i.id = any(${ids}::uuid[])`), INVOICE_ORDER, page);
}
