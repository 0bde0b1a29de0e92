import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { EXAMPLE_WALLET_ADDRESS } from "../../app/invoices/examples.ts";
import {
  addOwnPayoutWallet,
  type PayoutWalletRow,
  payoutWalletsOf,
  removeOwnPayoutWallet,
} from "../../app/merchants/manageWallets.ts";
import { checksummedAddress } from "../../app/schemaFields.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import {
  errorResponses,
  jsonResponse,
  keyRoute,
  pathParam,
  type Router,
  validationHook,
} from "../openapi.ts";

const WalletSchema = z
  .object({ address: z.string(), created_at: z.string() })
  .openapi("PayoutWallet", {
    example: { address: EXAMPLE_WALLET_ADDRESS, created_at: "2026-11-01T09:30:00.000Z" },
  });

const AddWalletSchema = z
  .strictObject({
    address: checksummedAddress.openapi({
      description:
        "A wallet of yours on Base, EIP-55 checksummed. Not the zero address, USDC's contract or a Remit deposit address.",
    }),
  })
  .openapi("AddPayoutWallet", { example: { address: EXAMPLE_WALLET_ADDRESS } });

const AddressParamSchema = z.object({
  address: pathParam(
    "address",
    EXAMPLE_WALLET_ADDRESS,
    "One of your payout wallets (any letter case).",
  ),
});

const listRoute = keyRoute({
  method: "get",
  path: "/api/merchant/wallets",
  tags: ["Account"],
  summary: "List your payout wallets",
  description:
    "Where your `byo` invoices and links may send money, and your managed wallet (null until your first `managed` invoice or link).",
  responses: {
    200: jsonResponse(
      "The wallets",
      z.object({ wallets: z.array(WalletSchema), managed_wallet: z.string().nullable() }),
      {
        wallets: [{ address: EXAMPLE_WALLET_ADDRESS, created_at: "2026-11-01T09:30:00.000Z" }],
        managed_wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      },
    ),
    ...errorResponses(401),
  },
});

const addRoute = keyRoute({
  method: "post",
  path: "/api/merchant/wallets",
  tags: ["Account"],
  summary: "Register a payout wallet",
  description:
    "Adds a wallet your `byo` invoices and links may name as `wallet_address`, and emails you at once (a stolen key cannot quietly redirect payments). 201 when added, 200 when it already was.",
  middleware: [jsonBody],
  request: jsonRequestBody(AddWalletSchema),
  responses: {
    201: jsonResponse("Added", WalletSchema),
    200: jsonResponse("Already registered", WalletSchema),
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const removeRoute = keyRoute({
  method: "delete",
  path: "/api/merchant/wallets/{address}",
  tags: ["Account"],
  summary: "Remove a payout wallet",
  description:
    "New `byo` invoices and links can no longer name it. Existing ones keep their wallet (invoices are append-only).",
  request: { params: AddressParamSchema },
  responses: {
    200: jsonResponse("Removed", z.object({ address: z.string(), removed: z.literal(true) }), {
      address: EXAMPLE_WALLET_ADDRESS,
      removed: true,
    }),
    ...errorResponses(401, 403, 404),
  },
});

const present = (row: PayoutWalletRow) => ({
  address: getAddress(row.address),
  created_at: row.created_at.toISOString(),
});

export function registerWalletRoutes(app: Router, deps: AppDeps): void {
  app.openapi(listRoute, async (c) => {
    const { wallets, managedWallet: managed } = await payoutWalletsOf(deps, merchantActorOf(c));
    return c.json(
      { wallets: wallets.map(present), managed_wallet: managed && getAddress(managed) },
      200,
    );
  });

  app.openapi<typeof addRoute>(
    addRoute,
    async (c) => {
      const address = c.req.valid("json").address;
      const { wallet, added } = await addOwnPayoutWallet(deps, merchantActorOf(c), address);
      return added ? c.json(present(wallet), 201) : c.json(present(wallet), 200);
    },
    validationHook((path) => (path === "" ? ["address"] : [])),
  );

  app.openapi(removeRoute, async (c) => {
    const address = c.req.valid("param").address;
    if (!(await removeOwnPayoutWallet(deps, merchantActorOf(c), address)))
      throw notFound("payout wallet");
    return c.json({ address: getAddress(address), removed: true as const }, 200);
  });
}
