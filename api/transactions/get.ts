import { createRoute, z } from "@hono/zod-openapi";
import {
  TRANSACTION_LOOKUP_STATES,
  type TransactionLookup,
  TX_HASH_PATTERN,
} from "../../domain/transactionLookup.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import type { TransactionLookupService } from "./lookupTransaction.ts";

const EXAMPLE_TX_HASH = "0x9f2c4e1b7a3d5c8e0f6a2b4d7c9e1f3a5b7d9c0e2f4a6b8c0d2e4f6a8b0c2d4e";

const ParamsSchema = z.object({
  tx_hash: z
    .string()
    .regex(TX_HASH_PATTERN, "must be a transaction hash: 0x and 64 hexadecimal digits")
    .openapi({
      param: { name: "tx_hash", in: "path" },
      example: EXAMPLE_TX_HASH,
      description: "A Base transaction hash: `0x` and 64 hexadecimal digits.",
    }),
});

const QuerySchema = z.object({
  slug: z
    .string()
    .max(64)
    .optional()
    .openapi({
      param: { name: "slug", in: "query" },
      description:
        "The slug of the invoice or link you paid (its page's address). Each transfer then says in `to_this` whether it paid that one. Without it a link is never named.",
    }),
});

const TransferSchema = z.object({
  amount: z.string().openapi({ description: "USDC the transfer moved.", example: "150.00" }),
  to_kind: z.enum(["invoice", "link"]),
  invoice_number: z.string().optional().openapi({ example: "INV-0042" }),
  to_this: z
    .boolean()
    .optional()
    .openapi({ description: "With `?slug=`: whether it paid that invoice or link." }),
  confirmations: z.number().int().openapi({ example: 4 }),
  required_confirmations: z.number().int().openapi({ example: 10 }),
  counted: z
    .boolean()
    .openapi({ description: "Counted in the invoice's or link's status (`paid_amount`)." }),
});

export const TransactionLookupSchema = z
  .object({
    tx_hash: z.string(),
    network: z.literal("base"),
    state: z.enum(TRANSACTION_LOOKUP_STATES).openapi({
      description:
        "`not_found` (Base has no such transaction: another network, a typo, or not sent yet), `pending` (not mined yet), `failed` (reverted: nothing moved), `not_usdc` (another token or ETH), `not_ours` (USDC to an address that is not Remit's), `confirming` (paid Remit, waiting for confirmations), `counted`, or `unavailable` (the chain cannot be asked right now: retry).",
    }),
    transfers: z.array(TransferSchema).openapi({
      description:
        "The transaction's USDC payments to Remit's addresses (`confirming`, `counted`).",
    }),
    message: z.string().openapi({ description: "The answer in plain words." }),
  })
  .openapi("TransactionLookup", {
    example: {
      tx_hash: EXAMPLE_TX_HASH,
      network: "base",
      state: "confirming",
      transfers: [
        {
          amount: "150.00",
          to_kind: "invoice",
          invoice_number: "INV-0042",
          confirmations: 4,
          required_confirmations: 10,
          counted: false,
        },
      ],
      message:
        "Remit sees this payment and is waiting for confirmations on Base; the status updates by itself.",
    },
  });

const route = createRoute({
  method: "get",
  path: "/api/transactions/{tx_hash}",
  tags: ["Payments"],
  summary: "Look up a payment by its transaction hash (no authentication)",
  description:
    'For a payer who says "I paid — where is it?": what Remit sees of that Base transaction. It names an invoice by its number only and never a link (unless `slug` is the one you name), and carries no merchant name, email, address or invoice id. Rate-limited per client IP (`RATE_LIMIT_TX_LOOKUP_PER_MIN`).',
  request: { params: ParamsSchema, query: QuerySchema },
  responses: {
    200: jsonResponse("What Remit sees", TransactionLookupSchema),
    ...errorResponses(400, 429),
  },
});

/** The JSON answer for `hash`. */
export const presentLookup = (hash: string, answer: TransactionLookup) => ({
  tx_hash: hash.toLowerCase(),
  network: "base" as const,
  ...answer,
});

/** `GET /api/transactions/{tx_hash}`: public, rate-limited per IP. */
export function registerTransactionLookup(app: Router, service: TransactionLookupService): void {
  app.openapi(route, async (c) => {
    const { tx_hash } = c.req.valid("param");
    const { slug } = c.req.valid("query");
    const decision = service.take(c);
    if (decision) {
      c.header("RateLimit-Limit", String(decision.limit));
      c.header("RateLimit-Remaining", String(decision.remaining));
      c.header("RateLimit-Reset", String(decision.resetSeconds));
      if (!decision.allowed) {
        c.header("Retry-After", String(decision.retryAfterSeconds));
        throw new ApiError(
          "rate_limited",
          "rate_limited",
          `too many transaction lookups from your address (${decision.limit} a minute); retry after ${decision.retryAfterSeconds} s`,
        );
      }
    }
    const answer = await service.lookup(tx_hash, slug);
    c.header("Cache-Control", "no-store");
    return c.json(presentLookup(tx_hash, answer), 200);
  });
}
