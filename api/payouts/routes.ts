import { createPayout, managedWalletOf, payoutsOf } from "../../app/payouts/createPayout.ts";
import { presentManagedWallet, presentPayout } from "../../app/payouts/present.ts";
import {
  CreatePayoutSchema,
  createPayoutKnownKeys,
  PayoutSchema,
  PayoutsResponseSchema,
} from "../../app/payouts/schema.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import { IdempotencyKeyHeadersSchema } from "../creationRoute.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";

const createPayoutRoute = keyRoute({
  method: "post",
  path: "/api/merchant/payouts",
  tags: ["Account"],
  summary: "Pay out of your managed wallet",
  description:
    "Moves USDC out of your managed wallet (where `managed` invoices and links are swept) to one of your registered payout wallets, never any other address (400 `not_a_payout_wallet`): one EIP-3009 `transferWithAuthorization` signed by the managed wallet's key with a nonce derived from the payout's id, relayed by the service (its gas counts in the relayer's daily budgets): a retry can never pay twice. " +
    "At most `available` (`GET /api/merchant/payouts`): the wallet's balance by Remit's books less what refunds and payouts on their way reserve (409 `payout_exceeds_available`). Audited; your account is emailed at once. At most `REFUNDS_PER_MERCHANT_PER_HOUR` payouts per merchant and hour, counted apart from refunds (429 `rate_limited`), and the relayer's daily gas budgets hold (429 `relayer_budget_exhausted`). " +
    "Retry safely with an `Idempotency-Key` header: the same key and body answer the first payout again. The payout moves `requested → submitted → confirmed`, or `failed` (nothing left the wallet; you are emailed).",
  middleware: [jsonBody],
  request: {
    headers: IdempotencyKeyHeadersSchema,
    ...jsonRequestBody(CreatePayoutSchema),
  },
  responses: {
    201: jsonResponse("The payout requested", PayoutSchema),
    ...errorResponses(400, 401, 403, 409, 413, 415, 429),
  },
});

const listPayoutsRoute = keyRoute({
  method: "get",
  path: "/api/merchant/payouts",
  tags: ["Account"],
  summary: "Your payouts and your managed wallet's balance",
  description:
    "The last 100 payouts, newest first, and your managed wallet: its `balance` by Remit's books, what of it is `reserved` for refunds and payouts on their way, and what is `available` to pay out.",
  responses: {
    200: jsonResponse("The payouts and the wallet", PayoutsResponseSchema, {
      payouts: [],
      managed_wallet: {
        address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        balance: "250.00",
        reserved: "20.00",
        available: "230.00",
      },
    }),
    ...errorResponses(401),
  },
});

export function registerPayoutRoutes(app: Router, deps: AppDeps): void {
  app.openapi<typeof createPayoutRoute>(
    createPayoutRoute,
    async (c) => {
      const payout = await createPayout(deps, merchantActorOf(c), c.req.valid("json"), {
        idempotencyKey: c.req.valid("header")["idempotency-key"],
      });
      return c.json(presentPayout(payout), 201);
    },
    validationHook(createPayoutKnownKeys),
  );
  app.openapi(listPayoutsRoute, async (c) => {
    const actor = merchantActorOf(c);
    const [payouts, wallet] = await Promise.all([
      payoutsOf(deps, actor),
      managedWalletOf(deps, actor),
    ]);
    return c.json(
      { payouts: payouts.map(presentPayout), managed_wallet: presentManagedWallet(wallet) },
      200,
    );
  });
}
