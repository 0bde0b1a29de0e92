import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { CurrencyAmountFields } from "../../app/invoices/schema.ts";
import {
  amountParam,
  assertRanges,
  baseUnits,
  endOf,
  enumListParam,
  momentParam,
  pageParams,
  searchParam,
  startOf,
} from "../../app/lists/listQuery.ts";
import { type LinkListRow, linkList } from "../../app/lists/merchantLists.ts";
import { storedMetadataSchema } from "../../app/schemaFields.ts";
import { CURRENCIES } from "../../domain/currencies.ts";
import { formatUsdc } from "../../domain/money.ts";
import { receivedInOwnUnit } from "../../domain/moneyRules.ts";
import { LINK_STATUSES, type LinkStatus, WALLET_TYPES } from "../../domain/statuses.ts";
import type { AppDeps } from "../deps.ts";
import type { Router } from "../openapi.ts";
import { listRequest, listRoute, pageBody, pageResponse } from "./listRoute.ts";

const QuerySchema = z.object({
  ...pageParams,
  status: enumListParam("status", LINK_STATUSES, "Only links with one of these statuses."),
  created_from: momentParam(
    "created_from",
    "Created at or after: a date (from its start, UTC) or an ISO 8601 time.",
  ),
  created_to: momentParam(
    "created_to",
    "Created before: a date (to its end, UTC: the day is included) or an ISO 8601 time (excluded).",
  ),
  amount_min: amountParam("amount_min", "`amount` at least this, in USDC."),
  amount_max: amountParam("amount_max", "`amount` at most this, in USDC."),
  q: searchParam("A substring of the slug or the description, in any case."),
});

export const linkSummaryExample = {
  link_id: "2c9a1f7e-5d3b-4a6c-8e1f-0a9b8c7d6e5f",
  slug: "7hKp2VwQx9Rm",
  status: "confirmed" as const,
  amount: "25.00",
  currency: "USDC" as const,
  amount_received: "25.00",
  refunded_amount: "0.00",
  description: "Order #1042",
  merchant_name: "Acme Coffee",
  wallet_type: "managed" as const,
  wallet_address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  deposit_address: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  metadata: { order_id: "1042" },
  payment_link: "https://pay.remit.example/pay/7hKp2VwQx9Rm",
  created_at: "2026-10-01T09:30:00.000Z",
};

export const linkSummaryShape = {
  link_id: z.uuid(),
  slug: z.string(),
  status: z.enum(LINK_STATUSES),
  amount: z
    .string()
    .openapi({ description: "What the link asks for, in USDC (or in `currency`)." }),
  currency: z.enum(CURRENCIES).openapi({
    description:
      "What `amount`, `amount_received` and `amount_due` are in: `USDC` (the spec's), or `EUR`, `GBP`, `USD`, paid in USDC at the chain's rate (docs/currencies.md).",
  }),
  amount_received: z.string().openapi({
    description:
      "The total of the counted payments, in USDC (in `currency`: what their conversions counted for, `paid_amount_usdc` beside).",
  }),
  paid_amount_usdc: CurrencyAmountFields.paid_amount_usdc,
  refunded_amount: z.string().openapi({
    description:
      "What confirmed refunds paid back, in USDC (`0.00` before any); `amount_received` less this is what the merchant kept.",
  }),
  description: z.string(),
  merchant_name: z.string().nullable(),
  wallet_type: z.enum(WALLET_TYPES),
  wallet_address: z.string(),
  deposit_address: z.string(),
  metadata: storedMetadataSchema,
  payment_link: z.url(),
  created_at: z.string(),
};

const LinkSummarySchema = z
  .object(linkSummaryShape)
  .openapi("LinkSummary", { example: linkSummaryExample });

/** One link as the list (and, with more, GET /api/links/{slug}) shows it. */
export function presentLinkSummary(
  deps: Pick<AppDeps, "payUrl">,
  row: Omit<LinkListRow, "list_at">,
): z.infer<typeof LinkSummarySchema> {
  return {
    link_id: row.id,
    slug: row.slug,
    status: row.status,
    amount: formatUsdc(row.amount),
    currency: row.currency,
    amount_received: formatUsdc(
      receivedInOwnUnit(row.currency, {
        received: row.received,
        receivedInCurrency: row.received_in_currency,
      }),
    ),
    ...(row.currency === "USDC" ? {} : { paid_amount_usdc: formatUsdc(row.received) }),
    refunded_amount: formatUsdc(row.refunded),
    description: row.description,
    merchant_name: row.merchant_name,
    wallet_type: row.wallet_type,
    wallet_address: getAddress(row.wallet_address),
    deposit_address: getAddress(row.deposit_address),
    metadata: row.metadata,
    payment_link: `${deps.payUrl}/pay/${row.slug}`,
    created_at: row.created_at.toISOString(),
  };
}

/** The parameters the list knows: an unknown one is a 400 (a typo must not widen the list). */
const QUERY_KEYS: readonly string[] = Object.keys(QuerySchema.shape);

const route = listRoute({
  path: "/api/links",
  tags: ["Payment links"],
  summary: "List your payment links",
  description:
    "Your payment links, newest first, a page at a time (`next_cursor` until the last page), filtered by status, creation date, amount and a search. A `read` key is enough.",
  query: QuerySchema,
  response: pageResponse("payment links", LinkSummarySchema, linkSummaryExample),
});

export function registerListLinks(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { actor, page } = listRequest(c, "links", query, QUERY_KEYS);
    const filters = {
      ...(query.status ? { statuses: query.status.split(",") as LinkStatus[] } : {}),
      ...(query.created_from ? { createdFrom: startOf(query.created_from) } : {}),
      ...(query.created_to ? { createdBefore: endOf(query.created_to) } : {}),
      ...(query.amount_min ? { amountMin: baseUnits(query.amount_min) } : {}),
      ...(query.amount_max ? { amountMax: baseUnits(query.amount_max) } : {}),
      ...(query.q ? { q: query.q } : {}),
    };
    assertRanges([
      { from: filters.createdFrom, to: filters.createdBefore, path: "created_to" },
      { from: filters.amountMin, to: filters.amountMax, path: "amount_max" },
    ]);
    const result = await linkList(deps, actor, filters, page);
    return c.json(
      pageBody(result, (row) => presentLinkSummary(deps, row)),
      200,
    );
  });
}
