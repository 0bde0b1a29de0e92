import { z } from "@hono/zod-openapi";
import { CURRENCIES } from "../../domain/currencies.ts";
import { REFUND_SOURCES, REFUND_STATUSES } from "../../domain/statuses.ts";

/** A refund as the API shows it (GET /api/invoices/{id}'s `refunds`, the refund routes' 201). */
export const refundShape = {
  refund_id: z.uuid(),
  status: z.enum(REFUND_STATUSES).openapi({
    description:
      "`requested` (waiting for its submission, or for the payer to name the address through the claim link), `submitted` (relayed, not yet seen on chain), `confirmed` (its transfer out is indexed), `failed` (see `error`).",
  }),
  amount: z.string().openapi({ example: "1.00", description: "USDC: what a refund pays back." }),
  currency: z.enum(CURRENCIES).optional().openapi({
    description:
      "Only for an invoice or link priced in a currency (`EUR`, `GBP`, `USD`): that currency.",
  }),
  amount_in_currency: z.string().nullable().optional().openapi({
    example: "10.00",
    description:
      "Only for an invoice or link priced in a currency: what this refund returns in it, its share of what the counted payments were converted to (their rates averaged by amount), rounded down to the cent; taken when the refund was requested. Null when it was requested before any payment was converted (no fresh rate then).",
  }),
  source: z.enum(REFUND_SOURCES).openapi({
    description: "Where the money leaves from: the deposit address, or your managed wallet.",
  }),
  from: z.string().openapi({ description: "The address the refund is paid from." }),
  to: z
    .string()
    .nullable()
    .openapi({ description: "Where it goes; null until the payer names it on the claim page." }),
  to_sender: z.boolean().openapi({ description: "Whether you asked for the payment's sender." }),
  claim_expires_at: z
    .string()
    .nullable()
    .openapi({ description: "Until when the claim link works; null without one." }),
  claimed_at: z.string().nullable(),
  tx_hash: z.string().nullable(),
  error: z.string().nullable().openapi({ description: "Why it failed, or the last problem." }),
  created_at: z.string(),
  confirmed_at: z.string().nullable(),
};

export const RefundSchema = z.object(refundShape).openapi("Refund");

export type Refund = z.infer<typeof RefundSchema>;
