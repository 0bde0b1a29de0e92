import { createRoute, type z } from "@hono/zod-openapi";
import { InvoiceIdParamSchema } from "../../app/invoices/schema.ts";
import { REFUND_CLAIM_TTL_DAYS } from "../../app/refunds/createRefund.ts";
import { presentRefund } from "../../app/refunds/present.ts";
import {
  createRefundKnownKeys,
  refundInvoice,
  refundLink,
} from "../../app/refunds/refundInvoice.ts";
import {
  CreateRefundResponseSchema,
  CreateRefundSchema,
  LinkSlugParamSchema,
} from "../../app/refunds/schema.ts";
import { actorOf } from "../auth/identity.ts";
import { IdempotencyKeyHeadersSchema } from "../creationRoute.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import {
  errorResponses,
  jsonResponse,
  keySecurity,
  type Router,
  validationHook,
} from "../openapi.ts";

const description =
  "Pays money Remit still controls for it back out, as an EIP-3009 `transferWithAuthorization` signed by the deposit key (or the managed wallet's) with a nonce derived from the refund's id and relayed like a sweep: a retry can never pay twice. " +
  "Refundable: held excess, an unswept (partial) payment, a void invoice's payment, and for `managed` what was swept into the managed wallet; less refunds already requested. " +
  "Money swept to your own (`byo`) wallet is refused (409 `refund_swept_to_own_wallet`): refund it from that wallet. " +
  "Destination: `to`, or `to_sender: true` (the payment's own sender: never the default, exchanges pay from shared hot wallets), or neither: a one-time claim link " +
  `(\`{PAY_URL}/refund/{token}\`, ${REFUND_CLAIM_TTL_DAYS} days) where the payer names the address, emailed to an invoice's vendor and returned once as \`claim_url\`. ` +
  "Without `amount`, a refund returns only what is not the merchant's revenue and is still held on the deposit address (an overpayment's excess, a void invoice's payment, a link's remainder); when there is none it is a 409 `nothing_to_refund`, so sending the same request twice never refunds revenue. Refunding revenue (a settled payment, from the deposit or the managed wallet) takes an explicit `amount`. " +
  "Send `{}` to return everything held through a claim link. " +
  "Retry safely with an `Idempotency-Key` header: the same key and body answer the first refund again (its `claim_url` too) and move nothing; the same key with another body or invoice is a 409 `idempotency_key_reused`. Without a key, a request repeating a refund of the last 10 minutes (the same `amount` to the same destination) is a 409 `duplicate_refund` whose `refund_id` names the first: send it with a new key to mean a second refund. " +
  "Limits, so refunds cannot drain the relayer that pays their gas: at least `REFUND_MINIMUM` (400 `below_minimum`; 409 `refund_below_minimum` when everything refundable is less), at most 3 unfinished refunds per invoice or link (409 `too_many_unfinished_refunds`), `REFUNDS_PER_MERCHANT_PER_HOUR` per merchant (429 `rate_limited`), and the relayer's daily gas budgets (429 `relayer_budget_exhausted` with `Retry-After`; 409 `refunds_unavailable` when the relayer pays nothing). " +
  "Money never moves on a public identifier: an invoice is refunded with its merchant's key (or, in open mode for a merchant without an account, by its `invoice_id`), a payment link with its merchant's key only (its slug is public). The refund moves `requested → submitted → confirmed` (its transfer out indexed) or `failed`; `invoice.refunded` / `link.refunded` is sent to the webhook_url when it is confirmed.";

const responses = {
  201: jsonResponse("The refund requested", CreateRefundResponseSchema),
  ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429),
};

/**
 * A refund route: an invoice's and a payment link's are one operation on another target (named
 * by `params`, taken from them by `targetOf`), with the same body, idempotency key, limits and
 * answer (the refund, with its one-time claim link when it has one).
 */
function registerRefund(
  app: Router,
  deps: AppDeps,
  target: {
    path: string;
    summary: string;
    params: z.ZodObject<Record<string, z.ZodString>>;
    /** The target's id or slug among the route's validated path parameters. */
    targetOf(param: Record<string, string>): string;
    refund: typeof refundInvoice;
  },
): void {
  const route = createRoute({
    method: "post",
    path: target.path,
    tags: ["Refunds"],
    summary: target.summary,
    security: keySecurity,
    description,
    middleware: [jsonBody],
    request: {
      params: target.params,
      headers: IdempotencyKeyHeadersSchema,
      ...jsonRequestBody(CreateRefundSchema),
    },
    responses,
  });
  app.openapi<typeof route>(
    route,
    async (c) => {
      const { row, claimUrl } = await target.refund(
        deps,
        actorOf(c),
        target.targetOf(c.req.valid("param")),
        c.req.valid("json"),
        c.req.valid("header")["idempotency-key"],
      );
      return c.json({ ...presentRefund(row), ...(claimUrl ? { claim_url: claimUrl } : {}) }, 201);
    },
    validationHook(createRefundKnownKeys),
  );
}

export function registerRefundRoutes(app: Router, deps: AppDeps): void {
  registerRefund(app, deps, {
    path: "/api/invoices/{id}/refunds",
    summary: "Refund an invoice's payment",
    params: InvoiceIdParamSchema,
    targetOf: (param: { id: string }) => param.id,
    refund: refundInvoice,
  });
  registerRefund(app, deps, {
    path: "/api/links/{slug}/refunds",
    summary: "Refund a payment link's payment",
    params: LinkSlugParamSchema,
    targetOf: (param: { slug: string }) => param.slug,
    refund: refundLink,
  });
}
