import { createRoute, z } from "@hono/zod-openapi";
import { EXAMPLE_SLUG } from "../../app/invoices/examples.ts";
import { type PaymentStatusResponse, PaymentStatusResponseSchema } from "../../app/links/schema.ts";
import { findInvoiceBySlug } from "../../db/queries/invoices.ts";
import { findLinkBySlug } from "../../db/queries/links.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { type RefundOwner, refundedAmountOf } from "../../db/queries/refunds.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { paymentStatusResponseExample } from "../links/examples.ts";
import { errorResponses, jsonResponse, openapiUnvalidated, type Router } from "../openapi.ts";

const route = createRoute({
  method: "get",
  path: "/api/payments/status/{slug}",
  tags: ["Payment links"],
  summary: "Poll a payment's status (no authentication)",
  description:
    "For a payment link (§2.5): `pending` with only `status`; then `confirmed`, `partial` or `excess` with `tx_hash` (the latest payment), " +
    "`amount_usdc` (total received) and `confirmed_at` (the latest payment's block time), and the link's `metadata`. " +
    "For an invoice slug (the hosted invoice page polls it too): the invoice's status vocabulary (`draft`, `sent`, `overdue`, `paid`, `partial`, `excess`), " +
    "with the same three fields once anything was received.",
  request: {
    params: z.object({
      slug: z.string().openapi({
        param: { name: "slug", in: "path" },
        example: EXAMPLE_SLUG,
        description: "A link's `slug`, or an invoice's.",
      }),
    }),
  },
  responses: {
    200: jsonResponse("The status", PaymentStatusResponseSchema, paymentStatusResponseExample),
    ...errorResponses(404, 429),
  },
});

const received = (state: PaymentState) =>
  state.latestTxHash && state.latestPaidAt
    ? {
        tx_hash: state.latestTxHash,
        amount_usdc: formatUsdc(state.received),
        confirmed_at: state.latestPaidAt.toISOString(),
      }
    : {};

/** `refunded_amount` once a refund was paid (confirmed refunds notify the status cache). */
async function refunded(deps: Pick<AppDeps, "db">, owner: RefundOwner) {
  const amount = await refundedAmountOf(deps.db, owner);
  return amount > 0n ? { refunded_amount: formatUsdc(amount) } : {};
}

/** The status a page or client polls, for a link's or an invoice's slug. */
async function paymentStatus(
  deps: Pick<AppDeps, "db">,
  slug: string,
): Promise<PaymentStatusResponse | null> {
  const link = await findLinkBySlug(deps.db, slug);
  if (link) {
    if (link.status === "pending") return { status: link.status };
    const [state, refunds] = await Promise.all([
      loadPaymentState(deps.db, link.deposit_address),
      refunded(deps, { linkId: link.id }),
    ]);
    return { status: link.status, ...received(state), metadata: link.metadata, ...refunds };
  }
  const invoice = await findInvoiceBySlug(deps.db, slug);
  if (!invoice) return null;
  const status = reportedStatus(invoice.status, invoice.due_date, utcToday());
  if (status !== "paid" && status !== "partial" && status !== "excess") return { status };
  const [state, refunds] = await Promise.all([
    loadPaymentState(deps.db, invoice.deposit_address),
    refunded(deps, { invoiceId: invoice.id }),
  ]);
  return { status, ...received(state), ...refunds };
}

/** The answer's headers, made once: what c.json sets, and no caching by anyone in between. */
const STATUS_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store" };

export function registerPaymentStatus(app: Router, deps: AppDeps): void {
  // Polled every 5 s by every open page: served without a zod validator (the slug is any
  // string; an unknown one is a 404) and from the cache as the JSON text it will be sent as.
  openapiUnvalidated(app, route, async (c) => {
    const slug = c.req.param("slug") as string;
    // The cache holds only what this route put into it: the answer, serialised.
    let body = deps.statusCache?.get(slug) as string | undefined;
    if (body === undefined) {
      // Noted before the read: an invalidation that overtakes the read keeps it out.
      const generation = deps.statusCache?.generation() ?? 0;
      const fresh = await paymentStatus(deps, slug);
      if (!fresh) throw notFound("payment");
      body = JSON.stringify(fresh);
      deps.statusCache?.set(slug, body, generation);
    }
    return c.body(body, 200, STATUS_HEADERS);
  });
}
