import { z } from "@hono/zod-openapi";
import { CURRENCIES } from "../../domain/currencies.ts";
import { LINK_STATUSES, REPORTED_INVOICE_STATUSES } from "../../domain/statuses.ts";
import {
  checksummedAddress,
  currencyField,
  currencyRules,
  emailAddress,
  metadataSchema,
  nonEmptyText,
  rule,
  usdcAmount,
  walletRules,
  walletType,
  webhookUrl,
  X402_URL_DESCRIPTION,
} from "../schemaFields.ts";

/**
 * `POST /api/links` (the spec leaves the request to us): one payment of `amount` USDC (or of
 * `amount` in `currency`, paid in USDC at the chain's rate) for `description`, with the same
 * wallet and currency rules as invoices.
 */
export const CreateLinkSchema = z
  .strictObject({
    merchant_email: emailAddress.openapi({
      description: "The merchant, looked up or created as for invoices.",
    }),
    merchant_name: nonEmptyText(200).optional().openapi({
      description:
        "Who the checkout says is asking for the money. Default: the name on the merchant's latest invoice, else none.",
    }),
    amount: usdcAmount.openapi({
      description:
        'A USDC amount, what the link asks for (or, with `currency`, an amount in it, at most 2 decimals): a quoted decimal string, such as `"25.00"`.',
    }),
    currency: currencyField.optional().openapi({
      description:
        "What `amount` is in: `USDC` (the default) or `USD`, `EUR`, `GBP`, paid in USDC at the rate of Chainlink's feed on Base at payment (docs/currencies.md).",
    }),
    description: nonEmptyText(500).openapi({
      description: "What the payer pays for, shown on the checkout.",
    }),
    wallet_type: walletType,
    wallet_address: checksummedAddress.optional(),
    webhook_url: webhookUrl.optional(),
    metadata: metadataSchema.optional().openapi({
      description: "Up to 20 flat keys echoed in status responses and webhooks (an order id, say).",
    }),
    redirect_url: z
      .url({ protocol: /^https?$/, ...rule("invalid_url", "must be an http(s) URL") })
      .max(2000)
      .optional()
      .openapi({
        description: "Where the checkout sends the payer once the payment is confirmed.",
      }),
  })
  .superRefine(
    (input, ctx) => {
      if (typeof input !== "object" || input === null || Array.isArray(input)) return;
      const body = input as Record<string, unknown>;
      walletRules(body, ctx);
      currencyRules(body, [{ path: ["amount"], value: body.amount }], ctx);
    },
    { when: () => true },
  )
  .openapi("CreateLinkRequest", {
    example: {
      merchant_email: "shop@acme.example",
      merchant_name: "Acme Coffee",
      amount: "25.00",
      description: "Order #1042",
      wallet_type: "managed",
      metadata: { order_id: "1042" },
      redirect_url: "https://shop.acme.example/thanks",
    },
  });

export type CreateLinkInput = z.infer<typeof CreateLinkSchema>;

export function createLinkKnownKeys(path: string): readonly string[] {
  return path === "" ? Object.keys(CreateLinkSchema.shape) : [];
}

export const CreateLinkResponseSchema = z
  .object({
    link_id: z.uuid(),
    slug: z.string(),
    payment_link: z.url(),
    x402_url: z.url().openapi({ description: X402_URL_DESCRIPTION }),
    iframe_snippet: z.string(),
    js_widget_snippet: z.string(),
    deposit_address: z.string(),
    amount: z.string(),
    currency: z.enum(CURRENCIES).exclude(["USDC"]).optional().openapi({
      description: "Only for a link priced in a currency: what `amount` is in.",
    }),
    status: z.literal("pending"),
    merchant_portal: z.url().nullable(),
    webhook_secret: z.string().optional(),
  })
  .openapi("CreateLinkResponse");

export type CreateLinkResponse = z.infer<typeof CreateLinkResponseSchema>;

export const PaymentStatusResponseSchema = z
  .object({
    status: z.union([z.enum(LINK_STATUSES), z.enum(REPORTED_INVOICE_STATUSES)]).openapi({
      description: "Links: pending, confirmed, partial, excess. Invoices: their status (§2.4).",
    }),
    tx_hash: z.string().optional(),
    amount_usdc: z.string().optional(),
    confirmed_at: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    refunded_amount: z.string().optional().openapi({
      description:
        "What confirmed refunds paid back, once one was (an addition to spec §2.5; absent before).",
      example: "0.50",
    }),
  })
  .openapi("PaymentStatusResponse");

export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponseSchema>;
