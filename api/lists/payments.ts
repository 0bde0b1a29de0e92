import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import {
  amountParam,
  assertRanges,
  baseUnits,
  endOf,
  momentParam,
  pageParams,
  rule,
  startOf,
} from "../../app/lists/listQuery.ts";
import {
  indexedHeadOf,
  type PaymentListFilters,
  type PaymentListItem,
  paymentList,
} from "../../app/lists/merchantLists.ts";
import { CURRENCIES } from "../../domain/currencies.ts";
import { formatUsdc } from "../../domain/money.ts";
import { formatRatio } from "../../domain/rates.ts";
import type { AppDeps } from "../deps.ts";
import { validationError } from "../errors.ts";
import type { Router } from "../openapi.ts";
import { listRequest, listRoute, pageBody, pageResponse } from "./listRoute.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidParam = (name: string, description: string) =>
  z
    .string()
    .refine((value) => UUID.test(value), rule("invalid_format", "must be a UUID"))
    .optional()
    .openapi({ param: { name, in: "query" }, description });

const QuerySchema = z.object({
  ...pageParams,
  kind: z
    .enum(["invoice", "link"])
    .optional()
    .openapi({
      param: { name: "kind", in: "query" },
      description: "Only payments of invoices, or of payment links.",
    }),
  invoice_id: uuidParam("invoice_id", "Only the payments of this invoice."),
  link_id: uuidParam("link_id", "Only the payments of this payment link."),
  payer: z
    .string()
    .refine(
      (value) => /^0x[0-9a-fA-F]{40}$/.test(value),
      rule("invalid_address", "must be an address (0x and 40 hex digits)"),
    )
    .optional()
    .openapi({
      param: { name: "payer", in: "query" },
      description: "Only payments from this address (any case).",
    }),
  paid_from: momentParam(
    "paid_from",
    "Block time at or after: a date (from its start, UTC) or an ISO 8601 time.",
  ),
  paid_to: momentParam(
    "paid_to",
    "Block time before: a date (to its end, UTC: the day is included) or an ISO 8601 time (excluded).",
  ),
  amount_min: amountParam("amount_min", "At least this, in USDC."),
  amount_max: amountParam("amount_max", "At most this, in USDC."),
});

const QUERY_KEYS: readonly string[] = Object.keys(QuerySchema.shape);

const paymentExample = {
  payment_id: "0x5e1f0c3b9a7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f-3",
  kind: "invoice" as const,
  invoice_id: "7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d",
  invoice_number: "INV-0042",
  link_id: null,
  slug: null,
  payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  amount: "150.125",
  tx_hash: "0x5e1f0c3b9a7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f",
  log_index: 3,
  block_number: 24118307,
  paid_at: "2026-10-02T14:05:11.000Z",
  confirmations: 12,
  deposit_address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  explorer_url:
    "https://basescan.org/tx/0x5e1f0c3b9a7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f",
};

const PaymentSchema = z
  .object({
    payment_id: z
      .string()
      .openapi({ description: "The transfer's identity: `<tx_hash>-<log_index>`." }),
    kind: z.enum(["invoice", "link"]),
    invoice_id: z.uuid().nullable(),
    invoice_number: z.string().nullable(),
    link_id: z.uuid().nullable(),
    slug: z
      .string()
      .nullable()
      .openapi({ description: "The payment link's slug (null for an invoice's payment)." }),
    payer: z.string().openapi({ description: "The address the USDC came from." }),
    amount: z.string(),
    tx_hash: z.string(),
    log_index: z.number(),
    block_number: z.number(),
    paid_at: z.string().openapi({ description: "The block's time." }),
    confirmations: z.number().openapi({
      description: "Blocks on top of the payment's, its own included, in the index now.",
    }),
    deposit_address: z.string(),
    explorer_url: z.string().nullable().openapi({
      description: "The transaction on the block explorer (`EXPLORER_URL`); null on a local chain.",
    }),
    currency: z.enum(CURRENCIES).exclude(["USDC"]).optional().openapi({
      description:
        "Only for a payment to an invoice or link priced in a currency: that currency (`amount` stays the USDC that arrived).",
    }),
    amount_in_currency: z.string().optional().openapi({
      description:
        "With `currency`, once converted: what the payment counted for in it (its quote's amount, or `amount` at `rate`), as `GET /api/invoices/{id}` shows it.",
    }),
    rate: z.string().optional().openapi({
      description:
        "With `currency`, once converted: USDC per unit of the currency it counted at (8 decimals, rounded down).",
    }),
  })
  .openapi("Payment", { example: paymentExample });

const route = listRoute({
  path: "/api/payments",
  tags: ["Payments"],
  summary: "List your payments",
  description:
    "Every counted USDC transfer to one of your invoices or payment links, newest block first, a page at a time (`next_cursor` until the last page), filtered by kind, invoice, link, payer, block time and amount. A `read` key is enough.",
  query: QuerySchema,
  response: pageResponse("payments", PaymentSchema, paymentExample),
});

function present(
  deps: Pick<AppDeps, "explorerUrl">,
  row: PaymentListItem,
  head: bigint | null,
): z.infer<typeof PaymentSchema> {
  const depth = head === null ? 0n : head - row.block_number + 1n;
  return {
    payment_id: row.id,
    kind: row.invoice_id ? "invoice" : "link",
    invoice_id: row.invoice_id,
    invoice_number: row.invoice_number,
    link_id: row.link_id,
    slug: row.link_slug,
    payer: getAddress(row.payer),
    amount: formatUsdc(row.amount),
    tx_hash: row.tx_hash,
    log_index: row.log_index,
    block_number: Number(row.block_number),
    paid_at: row.block_time.toISOString(),
    confirmations: Number(depth > 0n ? depth : 0n),
    deposit_address: getAddress(row.deposit_address),
    explorer_url: deps.explorerUrl ? `${deps.explorerUrl}/tx/${row.tx_hash}` : null,
    // Priced in a currency: the payment's worth in it; a payment in USDC is unchanged.
    ...(row.currency === "USDC"
      ? {}
      : {
          currency: row.currency,
          ...(row.conversion
            ? {
                amount_in_currency: formatUsdc(row.conversion.amount),
                rate: formatRatio(row.conversion.rate),
              }
            : {}),
        }),
  };
}

function filtersOf(query: z.infer<typeof QuerySchema>): PaymentListFilters {
  if (query.kind && (query.kind === "invoice" ? query.link_id : query.invoice_id))
    throw validationError([
      {
        path: "kind",
        code: "conflicting",
        message: `contradicts the ${query.kind === "invoice" ? "link_id" : "invoice_id"} given`,
      },
    ]);
  const filters: PaymentListFilters = {
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.invoice_id ? { invoiceId: query.invoice_id.toLowerCase() } : {}),
    ...(query.link_id ? { linkId: query.link_id.toLowerCase() } : {}),
    ...(query.payer ? { payer: query.payer } : {}),
    ...(query.paid_from ? { paidFrom: startOf(query.paid_from) } : {}),
    ...(query.paid_to ? { paidBefore: endOf(query.paid_to) } : {}),
    ...(query.amount_min ? { amountMin: baseUnits(query.amount_min) } : {}),
    ...(query.amount_max ? { amountMax: baseUnits(query.amount_max) } : {}),
  };
  assertRanges([
    { from: filters.paidFrom, to: filters.paidBefore, path: "paid_to" },
    { from: filters.amountMin, to: filters.amountMax, path: "amount_max" },
  ]);
  return filters;
}

export function registerListPayments(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { actor, page } = listRequest(c, "payments", query, QUERY_KEYS);
    const [result, head] = await Promise.all([
      paymentList(deps, actor, filtersOf(query), page),
      indexedHeadOf(deps),
    ]);
    return c.json(
      pageBody(result, (row) => present(deps, row, head)),
      200,
    );
  });
}
