import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { REFUND_STATUSES } from "../../domain/statuses.ts";
import { EXAMPLE_WALLET_ADDRESS } from "../invoices/examples.ts";
import { checksummedAddress, usdcAmount } from "../schemaFields.ts";

/** `POST /api/merchant/payouts`. */
export const CreatePayoutSchema = z
  .strictObject({
    amount: usdcAmount.openapi({
      example: "100.00",
      description: "How much to take out of your managed wallet, in USDC: at most `available`.",
    }),
    to: checksummedAddress
      .transform((value) => getAddress(value))
      .openapi({
        type: "string",
        example: EXAMPLE_WALLET_ADDRESS,
        description:
          "One of your registered payout wallets (`POST /api/merchant/wallets`), EIP-55 checksummed. Never any other address.",
      }),
  })
  .openapi("CreatePayoutRequest", { example: { amount: "100.00", to: EXAMPLE_WALLET_ADDRESS } });

export type CreatePayoutInput = z.infer<typeof CreatePayoutSchema>;

export const createPayoutKnownKeys = (path: string) => (path === "" ? ["amount", "to"] : []);

export const PayoutSchema = z
  .object({
    payout_id: z.string(),
    status: z.enum(REFUND_STATUSES).openapi({
      description: "`requested → submitted → confirmed`, or `failed` (nothing left the wallet).",
    }),
    amount: z.string(),
    from: z.string().openapi({ description: "Your managed wallet." }),
    to: z.string().openapi({ description: "The payout wallet it goes to." }),
    trigger: z.enum(["request", "automatic"]),
    tx_hash: z.string().nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    confirmed_at: z.string().nullable(),
  })
  .openapi("Payout", {
    example: {
      payout_id: "0b7c1f5e-2d4a-4e8b-9c1d-3f6a7b8c9d0e",
      status: "confirmed",
      amount: "100.00",
      from: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      to: EXAMPLE_WALLET_ADDRESS,
      trigger: "request",
      tx_hash: `0x${"ab".repeat(32)}`,
      error: null,
      created_at: "2026-12-01T10:00:00.000Z",
      confirmed_at: "2026-12-01T10:00:04.000Z",
    },
  });

export type Payout = z.infer<typeof PayoutSchema>;

export const ManagedWalletSchema = z
  .object({
    address: z.string(),
    balance: z.string().openapi({
      description:
        "What the wallet holds by Remit's books: confirmed sweeps in, less confirmed refunds and payouts out.",
    }),
    reserved: z.string().openapi({
      description: "What refunds and payouts on their way will take: never paid out twice.",
    }),
    available: z.string().openapi({ description: "What a payout may take now." }),
  })
  .openapi("ManagedWallet");

export const PayoutsResponseSchema = z
  .object({
    payouts: z.array(PayoutSchema),
    managed_wallet: ManagedWalletSchema.nullable().openapi({
      description: "Null until the account's first `managed` invoice or link.",
    }),
  })
  .openapi("Payouts");
