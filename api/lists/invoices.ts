import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { invoiceRowMoney } from "../../app/lists/invoiceRowMoney.ts";
import {
  amountParam,
  assertRanges,
  baseUnits,
  dateParam,
  endOf,
  enumListParam,
  metadataParam,
  momentParam,
  pageParams,
  searchParam,
  startOf,
} from "../../app/lists/listQuery.ts";
import {
  type InvoiceListFilters,
  type InvoiceListRow,
  type InvoiceListStatus,
  invoiceList,
} from "../../app/lists/merchantLists.ts";
import { storedMetadataSchema } from "../../app/schemaFields.ts";
import { CURRENCIES } from "../../domain/currencies.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { invoiceUrls } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  INVOICE_STATUSES,
  REPORTED_INVOICE_STATUSES,
  WALLET_TYPES,
} from "../../domain/statuses.ts";
import type { AppDeps } from "../deps.ts";
import type { Router } from "../openapi.ts";
import { listRequest, listRoute, pageBody, pageResponse } from "./listRoute.ts";

/** The statuses the list filters on: every reported one. */
const LIST_STATUSES = [...REPORTED_INVOICE_STATUSES] as InvoiceListStatus[];

const QuerySchema = z.object({
  ...pageParams,
  status: enumListParam(
    "status",
    LIST_STATUSES,
    "Only invoices with one of these statuses, as reported: `draft` and `sent` leave out what is `overdue`.",
  ),
  created_from: momentParam(
    "created_from",
    "Created at or after: a date (from its start, UTC) or an ISO 8601 time.",
    "2026-10-01",
  ),
  created_to: momentParam(
    "created_to",
    "Created before: a date (to its end, UTC: the day is included) or an ISO 8601 time (excluded).",
    "2026-10-31",
  ),
  due_from: dateParam("due_from", "Due on or after this date."),
  due_to: dateParam("due_to", "Due on or before this date."),
  amount_min: amountParam(
    "amount_min",
    "`total_amount` at least this, in the invoice's `currency`.",
    "100",
  ),
  amount_max: amountParam(
    "amount_max",
    "`total_amount` at most this, in the invoice's `currency`.",
    "2500.00",
  ),
  q: searchParam(
    "A substring of the invoice number, the vendor's name or email, or a line item's description, in any case.",
  ),
  metadata: metadataParam(
    'Only invoices whose `metadata` has this value at this key, one parameter per key: `metadata[order_id]=1042` (several keys: all of them). The value matches a stored string, or the number, boolean or null it spells (`1042` finds `"1042"` and `1042`).',
  ),
});

const invoiceSummaryExample = {
  invoice_id: "7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d",
  invoice_number: "INV-0042",
  slug: "4fQm9TzXk2Lp",
  status: "overdue" as const,
  stored_status: "sent" as const,
  vendor_name: "Globex Corporation",
  vendor_email: "ap@globex.example",
  total_amount: "150.125",
  paid_amount: "0.00",
  amount_due: "150.125",
  refunded_amount: "0.00",
  currency: "USDC" as const,
  issue_date: "2026-10-01",
  due_date: "2026-10-31",
  wallet_type: "managed" as const,
  deposit_address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  sent_at: "2026-10-01T09:30:00.000Z",
  created_at: "2026-10-01T09:30:00.000Z",
  invoice_url: "https://pay.remit.example/i/4fQm9TzXk2Lp",
  pdf_url: "https://api.remit.example/api/invoices/7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d/pdf",
  schedule_id: null,
  metadata: { order_id: "1042" },
};

export const InvoiceSummarySchema = z
  .object({
    invoice_id: z.uuid(),
    invoice_number: z.string(),
    slug: z.string(),
    status: z
      .enum(REPORTED_INVOICE_STATUSES)
      .openapi({ description: "As `GET /api/invoices/{id}` reports it (`overdue` derived)." }),
    stored_status: z.enum(INVOICE_STATUSES),
    vendor_name: z.string(),
    vendor_email: z.string(),
    total_amount: z.string().openapi({ description: "In the invoice's `currency`." }),
    paid_amount: z.string().openapi({
      description:
        "The total of the counted payments, in the invoice's `currency`: USDC, or for an invoice priced in a currency what they counted for in it.",
    }),
    amount_due: z.string().openapi({
      description:
        "What is still due, in the invoice's `currency`, as `GET /api/invoices/{id}` reports it: never negative, 0.00 once `paid` and when `void`.",
    }),
    refunded_amount: z.string().openapi({
      description:
        "What confirmed refunds paid back, in USDC whatever the invoice's `currency` (`0.00` before any); `paid_amount` (`paid_amount_usdc` for an invoice priced in a currency) less this is what the merchant kept.",
    }),
    currency: z.enum(CURRENCIES).openapi({
      description:
        "What `total_amount`, `paid_amount` and `amount_due` are in: `USDC`, or `EUR`, `GBP`, `USD` paid in USDC at the chain's rate (docs/currencies.md).",
    }),
    paid_amount_usdc: z.string().optional().openapi({
      description:
        "Only for an invoice priced in a currency: the counted payments in USDC, what arrived.",
    }),
    issue_date: z.string(),
    due_date: z.string(),
    wallet_type: z.enum(WALLET_TYPES),
    deposit_address: z.string(),
    sent_at: z.string().nullable(),
    created_at: z.string(),
    invoice_url: z.url(),
    pdf_url: z.url(),
    schedule_id: z
      .uuid()
      .nullable()
      .openapi({ description: "The invoice schedule that issued it; null for one made by hand." }),
    metadata: storedMetadataSchema.openapi({
      description: "The `metadata` it was created with; `{}` when none was given.",
    }),
  })
  .openapi("InvoiceSummary", { example: invoiceSummaryExample });

/** The parameters the list knows: an unknown one is a 400 (a typo must not widen the list). */
const QUERY_KEYS: readonly string[] = Object.keys(QuerySchema.shape);

const route = listRoute({
  path: "/api/invoices",
  tags: ["Invoices"],
  summary: "List your invoices",
  description:
    "Your invoices, newest first, a page at a time (`next_cursor` until the last page), filtered by status, creation and due dates, amount and a search. A `read` key is enough. Line items and payments: `GET /api/invoices/{id}`.",
  query: QuerySchema,
  response: pageResponse("invoices", InvoiceSummarySchema, invoiceSummaryExample),
});

/** One row of the list as the API shows it. */
export function presentInvoiceSummary(
  deps: Pick<AppDeps, "baseUrl" | "payUrl">,
  row: InvoiceListRow,
  today: string,
): z.infer<typeof InvoiceSummarySchema> {
  const money = invoiceRowMoney(row);
  return {
    invoice_id: row.id,
    invoice_number: row.invoice_number,
    slug: row.slug,
    status: reportedStatus(row.status, row.due_date, today),
    stored_status: row.status,
    vendor_name: row.vendor_name,
    vendor_email: row.vendor_email,
    total_amount: formatUsdc(row.total_amount),
    paid_amount: formatUsdc(money.paid),
    amount_due: formatUsdc(money.due),
    refunded_amount: formatUsdc(row.refunded),
    currency: row.currency,
    // Priced in a currency: the amounts above are in it; what arrived in USDC is told beside.
    ...(row.currency === "USDC" ? {} : { paid_amount_usdc: formatUsdc(money.paidUsdc) }),
    issue_date: row.issue_date,
    due_date: row.due_date,
    wallet_type: row.wallet_type,
    deposit_address: getAddress(row.deposit_address),
    sent_at: row.sent_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    ...invoiceUrls(deps, row.id, row.slug),
    schedule_id: row.schedule_id,
    metadata: row.metadata,
  };
}

/** The list's filters from its validated query; a reversed range is a 400. */
function filtersOf(
  query: z.infer<typeof QuerySchema>,
  metadata: Record<string, string> | undefined,
  today: string,
): InvoiceListFilters {
  const filters: InvoiceListFilters = {
    today,
    ...(metadata ? { metadata } : {}),
    ...(query.status ? { statuses: query.status.split(",") as InvoiceListStatus[] } : {}),
    ...(query.created_from ? { createdFrom: startOf(query.created_from) } : {}),
    ...(query.created_to ? { createdBefore: endOf(query.created_to) } : {}),
    ...(query.due_from ? { dueFrom: query.due_from } : {}),
    ...(query.due_to ? { dueTo: query.due_to } : {}),
    ...(query.amount_min ? { amountMin: baseUnits(query.amount_min) } : {}),
    ...(query.amount_max ? { amountMax: baseUnits(query.amount_max) } : {}),
    ...(query.q ? { q: query.q } : {}),
  };
  assertRanges([
    { from: filters.createdFrom, to: filters.createdBefore, path: "created_to" },
    { from: filters.dueFrom, to: filters.dueTo, path: "due_to" },
    { from: filters.amountMin, to: filters.amountMax, path: "amount_max" },
  ]);
  return filters;
}

export function registerListInvoices(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { actor, page, metadata } = listRequest(c, "invoices", query, QUERY_KEYS);
    const today = utcToday();
    const result = await invoiceList(deps, actor, filtersOf(query, metadata, today), page);
    return c.json(
      pageBody(result, (row) => presentInvoiceSummary(deps, row, today)),
      200,
    );
  });
}
