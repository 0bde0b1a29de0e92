import { z } from "@hono/zod-openapi";
import { EXAMPLE_PAYMENT_TX, EXAMPLE_SLUG } from "../../app/invoices/examples.ts";
import { pathParam } from "../openapi.ts";

/** `GET /api/x402/{slug}`'s JSON answers besides the x402 headers. */

const EXAMPLE_PAYER = "0x364E2533F6f0b3b560dCA617192940206d806B7e";
const API_URL = "https://api.example.com";

export const X402_RECEIPT_STATUSES = ["settled", "processing", "paid", "void"] as const;

export const X402ReceiptSchema = z
  .object({
    kind: z.enum(["invoice", "link"]),
    slug: z.string().openapi({ example: EXAMPLE_SLUG }),
    invoice_number: z
      .string()
      .nullable()
      .openapi({ example: "INV-0001", description: "An invoice's number; null for a link." }),
    merchant_name: z.string().nullable().openapi({ example: "Acme Design Studio" }),
    status: z.enum(X402_RECEIPT_STATUSES).openapi({
      description:
        "`settled`: this request's payment is in a block (the invoice or link turns paid once the transfer has its confirmations). " +
        "`processing`: a relayed payment is on its way (sent, not yet in a block within the wait; follow `status_url`). " +
        "`paid`: nothing is due (paid in full, or more). `void`: the invoice was cancelled; nothing is to be paid.",
    }),
    amount: z.string().openapi({
      example: "150.00",
      description:
        "USDC: this payment's amount (`settled`, `processing`), else what the deposit address has received.",
    }),
    amount_due: z.string().openapi({
      example: "0.00",
      description: "USDC still due once this payment counts; never negative.",
    }),
    tx_hash: z.string().nullable().openapi({
      example: EXAMPLE_PAYMENT_TX,
      description: "This payment's transaction; for `paid`, the latest payment's.",
    }),
    payer: z.string().nullable().openapi({
      example: EXAMPLE_PAYER,
      description: "Checksummed; null when no payment of this request's is named.",
    }),
    pdf_url: z
      .url()
      .nullable()
      .openapi({
        example: `${API_URL}/api/invoices/by-slug/${EXAMPLE_SLUG}/pdf`,
        description: "An invoice's PDF (public, by slug); null for a link.",
      }),
    status_url: z.url().openapi({
      example: `${API_URL}/api/payments/status/${EXAMPLE_SLUG}`,
      description: "The status endpoint to follow until the payment counts.",
    }),
  })
  .openapi("X402Receipt");

export type X402Receipt = z.output<typeof X402ReceiptSchema>;

export const x402ReceiptExample = {
  kind: "invoice",
  slug: EXAMPLE_SLUG,
  invoice_number: "INV-0001",
  merchant_name: "Acme Design Studio",
  status: "settled",
  amount: "150.00",
  amount_due: "0.00",
  tx_hash: EXAMPLE_PAYMENT_TX,
  payer: EXAMPLE_PAYER,
  pdf_url: `${API_URL}/api/invoices/by-slug/${EXAMPLE_SLUG}/pdf`,
  status_url: `${API_URL}/api/payments/status/${EXAMPLE_SLUG}`,
} satisfies X402Receipt;

export const x402ProcessingExample = {
  ...x402ReceiptExample,
  status: "processing",
} satisfies X402Receipt;

export const X402ParamsSchema = z.object({
  slug: pathParam("slug", EXAMPLE_SLUG, "An invoice's `slug`, or a link's."),
});

/**
 * A `PAYMENT-SIGNATURE` payload as the `exact` scheme on EVM carries it
 * (specs/schemes/exact/scheme_exact_evm.md, EIP-3009): integers as decimal strings. What the
 * header decodes to is read through this; anything else is `invalid_payload`.
 */
const decimal = z.string().regex(/^(0|[1-9]\d{0,77})$/);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
export const X402PaymentPayloadSchema = z.object({
  x402Version: z.number(),
  accepted: z.object({
    scheme: z.string(),
    network: z.string(),
    // An address, checked here: viem's getAddress throws on anything else (a 500, not a 400).
    asset: address,
  }),
  payload: z.object({
    signature: z.string().regex(/^0x([0-9a-fA-F]{2}){65,2048}$/),
    authorization: z.object({
      from: address,
      to: address,
      value: decimal,
      validAfter: decimal,
      validBefore: decimal,
      nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
    }),
  }),
});
