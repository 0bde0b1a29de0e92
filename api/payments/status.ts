import { createRoute, z } from "@hono/zod-openapi";
import { EXAMPLE_SLUG } from "../../app/invoices/examples.ts";
import { PaymentStatusResponseSchema } from "../../app/links/schema.ts";
import { paymentStatus } from "../../app/payments/paymentStatus.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { paymentStatusResponseExample } from "../links/examples.ts";
import {
  errorResponses,
  jsonResponse,
  openapiUnvalidated,
  pathParam,
  type Router,
} from "../openapi.ts";

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
      slug: pathParam("slug", EXAMPLE_SLUG, "A link's `slug`, or an invoice's."),
    }),
  },
  responses: {
    200: jsonResponse("The status", PaymentStatusResponseSchema, paymentStatusResponseExample),
    ...errorResponses(404, 429),
  },
});

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
