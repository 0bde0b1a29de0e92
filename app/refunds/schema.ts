import { z } from "@hono/zod-openapi";
import { getAddress, isAddress } from "viem";
import { EXAMPLE_WALLET_ADDRESS } from "../invoices/examples.ts";
import { rule, usdcAmount } from "../schemaFields.ts";
import { refundShape } from "./refundSchema.ts";

export { type Refund, RefundSchema } from "./refundSchema.ts";

/** Any valid address, in any letter case; stored checksummed. */
const destination = z
  .string()
  .refine(
    (value) => isAddress(value, { strict: false }),
    rule("invalid_address", "must be a 0x-prefixed 40-hex-digit EVM address"),
  )
  .transform((value) => getAddress(value))
  .openapi({
    type: "string",
    pattern: "^0x[0-9a-fA-F]{40}$",
    example: EXAMPLE_WALLET_ADDRESS,
    description:
      "Where the refund goes: an address on Base. Omit it (and `to_sender`) to have Remit make a one-time claim link where the payer names the address.",
  });

/** `POST /api/invoices/{id}/refunds`, `POST /api/links/{slug}/refunds`. */
export const CreateRefundSchema = z
  .strictObject({
    amount: usdcAmount
      .openapi({
        example: "1.00",
        description:
          "How much to refund, in USDC. Default: everything refundable from one address (what the deposit address holds, else what the managed wallet received for it).",
      })
      .optional(),
    to: destination.optional(),
    to_sender: z
      .literal(true, rule("invalid_value", "must be true, or omitted"))
      .openapi({
        description:
          "Refund to the address the payment came from. Never the default: a payment sent from an exchange comes from its shared hot wallet, and money sent back there is lost to the payer. Only when the payments came from one address.",
      })
      .optional(),
  })
  .superRefine(
    (body, ctx) => {
      if (typeof body !== "object" || body === null) return;
      const { to, to_sender } = body as Record<string, unknown>;
      if (to !== undefined && to_sender !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["to_sender"],
          ...rule("conflict", "give either `to` or `to_sender`, not both"),
        });
    },
    { when: () => true },
  )
  .openapi("CreateRefundRequest", { example: { amount: "1.00", to: EXAMPLE_WALLET_ADDRESS } });

export type CreateRefundInput = z.infer<typeof CreateRefundSchema>;

export const CreateRefundResponseSchema = z
  .object({
    ...refundShape,
    claim_url: z.url().optional().openapi({
      description:
        "The one-time claim link `{PAY_URL}/refund/{token}` (no `to`, no `to_sender`): emailed to an invoice's vendor, and shown here once so you can hand it over yourself. Stored only as a hash.",
    }),
  })
  .openapi("CreateRefundResponse", {
    example: {
      refund_id: "4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11",
      status: "requested",
      amount: "0.50",
      source: "deposit",
      from: "0x3A9f1B2c4D5e6F708192A3b4C5d6E7f809112233",
      to: null,
      to_sender: false,
      claim_expires_at: "2026-12-15T10:00:00.000Z",
      claimed_at: null,
      tx_hash: null,
      error: null,
      created_at: "2026-12-01T10:00:00.000Z",
      confirmed_at: null,
      claim_url: "https://pay.example.com/refund/8sXkQ2v9GmT4pLr7JcYw3NbHf6DzA1eKqUoVi5RtWxS",
    },
  });

export type CreateRefundResponse = z.infer<typeof CreateRefundResponseSchema>;

export const LinkSlugParamSchema = z.object({
  slug: z.string().openapi({
    param: { name: "slug", in: "path" },
    example: "7Hq2KfT9xWmB",
    description: "The payment link's slug.",
  }),
});
