import { z } from "@hono/zod-openapi";
import {
  EXAMPLE_DEPOSIT_ADDRESS,
  EXAMPLE_PAYMENT_TX,
  EXAMPLE_SLUG,
} from "../../app/invoices/examples.ts";
import { PUBLIC_AUTHORIZATION_STATUSES } from "../../domain/relayedAuthorization.ts";
import { pathParam } from "../openapi.ts";

/**
 * `POST /api/payments/{slug}/authorizations` and its answers: a payer's EIP-3009
 * `TransferWithAuthorization`, exactly as signed (integers as decimal strings, since
 * uint256 does not fit a JSON number), and what became of it.
 */

const rule = (code: string, message: string) => ({ message, params: { code } });
const EXAMPLE_PAYER = "0x364E2533F6f0b3b560dCA617192940206d806B7e";
const EXAMPLE_AUTHORIZATION_ID = "3b9d6c1a-52e4-4f7b-8d0e-6a1f2c3d4e5f";

// Wallets hand out lowercase addresses as often as checksummed ones: any case is taken.
const address = (description: string, example: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, rule("invalid_address", "must be a 0x-prefixed 20-byte address"))
    .openapi({ example, description });
const uint = (description: string, example: string) =>
  z
    .string()
    .regex(
      /^(0|[1-9]\d{0,77})$/,
      rule("invalid_integer", 'must be a non-negative integer written as a string, such as "0"'),
    )
    .openapi({ example, description });

export const CreateAuthorizationSchema = z
  .strictObject({
    from: address("The payer: the address that signed.", EXAMPLE_PAYER),
    to: address("Must be the deposit address of this invoice or link.", EXAMPLE_DEPOSIT_ADDRESS),
    value: uint(
      "USDC base units (6 decimals) as signed: exactly the amount still due (`150000000` is 150.00 USDC).",
      "150000000",
    ),
    valid_after: uint("Unix seconds; must not be in the future (0 is usual).", "0"),
    valid_before: uint(
      "Unix seconds; at least 60 s and at most 3600 s from now when it arrives.",
      "1795000000",
    ),
    nonce: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, rule("invalid_nonce", "must be 32 bytes as 0x + 64 hex digits"))
      .openapi({
        example: "0x7d3f0b5a1c9e4d2f6a8b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7",
        description: "32 random bytes the payer chose; USDC accepts each (payer, nonce) once.",
      }),
    signature: z
      .string()
      .regex(
        /^0x([0-9a-fA-F]{2}){65,2048}$/,
        rule("invalid_signature", "must be a hex signature (0x + at least 130 hex digits)"),
      )
      .openapi({
        example: `0x${"1b".repeat(65)}`,
        description:
          "The EIP-712 signature (`eth_signTypedData_v4`) over USDC's domain on Base (name `USD Coin`, version `2`, chain 8453). Smart-contract wallets: an ERC-1271 signature, which USDC itself checks.",
      }),
  })
  .openapi("CreateAuthorizationRequest", {
    example: {
      from: EXAMPLE_PAYER,
      to: EXAMPLE_DEPOSIT_ADDRESS,
      value: "150000000",
      valid_after: "0",
      valid_before: "1795000000",
      nonce: "0x7d3f0b5a1c9e4d2f6a8b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7",
      signature: `0x${"1b".repeat(65)}`,
    },
  });

export type CreateAuthorization = z.output<typeof CreateAuthorizationSchema>;

const KNOWN_KEYS = Object.keys(CreateAuthorizationSchema.shape);
export const createAuthorizationKnownKeys = (path: string) => (path === "" ? KNOWN_KEYS : []);

export const AuthorizationSchema = z
  .object({
    authorization_id: z.uuid().openapi({ example: EXAMPLE_AUTHORIZATION_ID }),
    slug: z.string().openapi({ example: EXAMPLE_SLUG }),
    status: z.enum(PUBLIC_AUTHORIZATION_STATUSES).openapi({
      description:
        "`pending` (queued for the relayer), `submitted` (its transaction is sent: `tx_hash`), `mined` (in a block), `failed` (refused at submission or reverted: `error`), `expired` (its `valid_before` passed first). The payment itself counts like any other, through the status endpoint.",
    }),
    payer: z.string().openapi({ example: EXAMPLE_PAYER, description: "Checksummed." }),
    amount: z.string().openapi({ example: "150.00", description: "USDC decimal." }),
    tx_hash: z.string().nullable().openapi({ example: EXAMPLE_PAYMENT_TX }),
    error: z.string().nullable().openapi({ example: null }),
    status_url: z.url().openapi({
      example: `https://api.example.com/api/payments/${EXAMPLE_SLUG}/authorizations/${EXAMPLE_AUTHORIZATION_ID}`,
      description: "Where to follow it (`GET`).",
    }),
  })
  .openapi("PayerAuthorization");

export type AuthorizationResponse = z.output<typeof AuthorizationSchema>;

export const authorizationExample = {
  authorization_id: EXAMPLE_AUTHORIZATION_ID,
  slug: EXAMPLE_SLUG,
  status: "submitted",
  payer: EXAMPLE_PAYER,
  amount: "150.00",
  tx_hash: EXAMPLE_PAYMENT_TX,
  error: null,
  status_url: `https://api.example.com/api/payments/${EXAMPLE_SLUG}/authorizations/${EXAMPLE_AUTHORIZATION_ID}`,
} satisfies AuthorizationResponse;

export const pendingAuthorizationExample = {
  ...authorizationExample,
  status: "pending",
  tx_hash: null,
} satisfies AuthorizationResponse;

export const AuthorizationParamsSchema = z.object({
  slug: pathParam("slug", EXAMPLE_SLUG, "A link's `slug`, or an invoice's."),
});

export const AuthorizationIdParamsSchema = AuthorizationParamsSchema.extend({
  id: pathParam("id", EXAMPLE_AUTHORIZATION_ID, "The `authorization_id`."),
});
