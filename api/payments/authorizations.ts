import { createRoute } from "@hono/zod-openapi";
import { type Address, createPublicClient, getAddress, type Hex } from "viem";
import { base } from "viem/chains";
import { classifyChainError } from "../../chain/errors.ts";
import { rpcTransport } from "../../chain/rpc.ts";
import {
  findPayerAuthorization,
  insertPayerAuthorization,
  type PayerAuthorizationRow,
} from "../../db/queries/payerAuthorizations.ts";
import { lockRelayerGasBudget, relayerSpend } from "../../db/queries/relayerGas.ts";
import { formatUsdc } from "../../domain/money.ts";
import { RateLimiter } from "../../domain/rateLimiter.ts";
import {
  publicAuthorizationStatus,
  secondsUntilNextUtcDay,
  utcDayStart,
} from "../../domain/relayedAuthorization.ts";
import {
  overRelayerBudget,
  REFUND_GAS_RESERVE,
  relayerBudgetMessage,
} from "../../domain/relayerBudget.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError, ErrorResponseSchema, notFound } from "../errors.ts";
import { jsonBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, type Router, validationHook } from "../openapi.ts";
import {
  AuthorizationIdParamsSchema,
  AuthorizationParamsSchema,
  type AuthorizationResponse,
  AuthorizationSchema,
  authorizationExample,
  CreateAuthorizationSchema,
  createAuthorizationKnownKeys,
  pendingAuthorizationExample,
} from "./authorizationSchema.ts";
import {
  type AuthorizationChain,
  authorizationMessage,
  findPayable,
  verifyAuthorization,
} from "./verifyAuthorization.ts";

const refusals =
  "Refusals, each with its own `error.code`: 409 `nothing_due`, `payment_in_progress` (one payment at a time per deposit address), " +
  "`authorization_used` (a replay: stored before, or its nonce used on chain), `gasless_unavailable` (this service relays nothing); " +
  "422 `wrong_recipient`, `wrong_amount`, `not_yet_valid`, `authorization_expired`, `validity_too_long`, `invalid_signature`, " +
  "`insufficient_balance`, `simulation_failed`; 429 `rate_limited` (per client IP before anything is checked, and per invoice or link " +
  "and payer once the signature is the payer's) and `relayer_budget_exhausted` (the relayer's, or this merchant's, gas budget of the day " +
  "is spent; `Retry-After` says when it renews). Nothing is sent on any refusal.";

const createRouteSpec = createRoute({
  method: "post",
  path: "/api/payments/{slug}/authorizations",
  tags: ["Payment links"],
  summary: "Pay gaslessly with a signed USDC authorization (no authentication)",
  description:
    "The payer signs an EIP-3009 `TransferWithAuthorization` of exactly the amount still due to the deposit address of this invoice or link " +
    "(by slug); Remit verifies it, simulates it, and its relayer submits it and pays the gas, so the payer needs no ETH. " +
    "Answers 200 once the relayer has submitted it (with `tx_hash`), or 202 while it is still queued (follow `status_url`). " +
    refusals,
  middleware: [jsonBody],
  request: {
    params: AuthorizationParamsSchema,
    body: {
      required: true,
      content: { "application/json": { schema: CreateAuthorizationSchema } },
    },
  },
  responses: {
    200: jsonResponse("Submitted (or already settled)", AuthorizationSchema, authorizationExample),
    202: jsonResponse(
      "Accepted, not submitted yet: follow `status_url`",
      AuthorizationSchema,
      pendingAuthorizationExample,
    ),
    ...errorResponses(400, 404, 409, 413, 415),
    422: jsonResponse(
      "The authorization cannot pay this invoice or link (see the codes above); `error.fields` names the field at fault.",
      ErrorResponseSchema,
    ),
    429: jsonResponse(
      "`rate_limited` (this client IP, or this invoice or link and payer) or `relayer_budget_exhausted`; `Retry-After` says in how many seconds to retry.",
      ErrorResponseSchema,
    ),
  },
});

const getRouteSpec = createRoute({
  method: "get",
  path: "/api/payments/{slug}/authorizations/{id}",
  tags: ["Payment links"],
  summary: "Follow a gasless payment (no authentication)",
  description:
    "What became of an authorization `POST /api/payments/{slug}/authorizations` accepted.",
  request: { params: AuthorizationIdParamsSchema },
  responses: {
    200: jsonResponse("The authorization", AuthorizationSchema, authorizationExample),
    ...errorResponses(404, 429),
  },
});

/** Statuses after which the POST has its answer (the worker has done its part). */
const SETTLED = new Set(["submitted", "mined", "failed", "expired"]);
const WAIT_POLL_MS = 50;

function present(
  deps: Pick<AppDeps, "baseUrl">,
  slug: string,
  row: PayerAuthorizationRow,
): AuthorizationResponse {
  return {
    authorization_id: row.id,
    slug,
    status: publicAuthorizationStatus(row.status),
    payer: getAddress(row.payer),
    amount: formatUsdc(row.value),
    tx_hash: row.tx_hash,
    error: row.error,
    status_url: `${deps.baseUrl}/api/payments/${encodeURIComponent(slug)}/authorizations/${row.id}`,
  };
}

/** A unique violation, by constraint name (Postgres' SQLSTATE 23505). */
const uniqueViolation = (error: unknown): string | null =>
  (error as { code?: string }).code === "23505"
    ? ((error as { constraint?: string }).constraint ?? "")
    : null;

/**
 * The gasless payment routes. The API holds no key: it verifies and stores the payer's
 * authorization (api/payments/verifyAuthorization.ts), the insert queues the worker's
 * `relay_authorization` job, and the request waits (polling the row) for the worker to submit.
 */
export function registerPaymentAuthorizations(app: Router, deps: AppDeps): void {
  const settings = deps.gasless;
  const budget = deps.relayerBudget;
  const relayer = deps.relayerAddress ? (getAddress(deps.relayerAddress) as Address) : null;
  let chain: AuthorizationChain | undefined;
  // Made on first use: the app is also built without a chain (its OpenAPI document alone).
  const chainClient = () => {
    chain ??= createPublicClient({ chain: base, transport: rpcTransport(deps.rpcUrl) });
    return chain;
  };
  const perSlug = settings?.perSlugPerMinute
    ? new RateLimiter({ perMinute: settings.perSlugPerMinute })
    : null;

  app.openapi<typeof createRouteSpec>(
    createRouteSpec,
    async (c) => {
      const { slug } = c.req.valid("param");
      const body = c.req.valid("json");
      const payable = await findPayable(deps.db, slug);
      if (!payable) throw notFound("payment");
      const now = new Date();
      if (!relayer || !settings || !budget || budget.daily === 0n)
        throw new ApiError(
          409,
          "gasless_unavailable",
          "this service does not relay payments; send the USDC with a plain transfer",
        );

      const message = authorizationMessage(body);
      const signature = body.signature.toLowerCase() as Hex;
      // The per-invoice budget is the payer's own: taken only once the signature is proven
      // theirs, and kept per payer, so nobody's junk (nor valid signatures of throwaway keys)
      // can use it up before the real payer's authorization arrives. The per-IP budget
      // (api/abuseGuards.ts) is taken before anything is read.
      const takePerSlug = () => {
        if (!perSlug) return;
        const decision = perSlug.take(`${slug}:${message.from.toLowerCase()}`, now.getTime());
        if (decision.allowed) return;
        c.header("Retry-After", String(decision.retryAfterSeconds));
        throw new ApiError(
          429,
          "rate_limited",
          `too many payment attempts for this invoice or link from ${message.from} (${settings.perSlugPerMinute} a minute); retry after ${decision.retryAfterSeconds} s`,
        );
      };
      let gasReserved: bigint;
      try {
        ({ gasReserved } = await verifyAuthorization(
          { db: deps.db, chain: chainClient(), relayer },
          payable,
          message,
          signature,
          BigInt(Math.floor(now.getTime() / 1000)),
          takePerSlug,
        ));
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (classifyChainError(error).kind === "unreachable")
          throw new ApiError(
            503,
            "chain_unavailable",
            "the Base RPC did not answer; retry shortly",
          );
        throw error;
      }

      let row: PayerAuthorizationRow;
      try {
        row = await deps.db.transaction().execute(async (trx) => {
          await lockRelayerGasBudget(trx);
          const since = utcDayStart(now);
          const spent = await relayerSpend(trx, since, REFUND_GAS_RESERVE, payable.merchantId);
          const over = overRelayerBudget(spent, gasReserved, budget);
          if (over) {
            c.header("Retry-After", String(secondsUntilNextUtcDay(now)));
            throw new ApiError(
              429,
              "relayer_budget_exhausted",
              relayerBudgetMessage(over, "gasless payments", "send the USDC with a plain transfer"),
            );
          }
          return insertPayerAuthorization(trx, {
            deposit_address: payable.depositAddress.toLowerCase(),
            payer: message.from.toLowerCase(),
            value: message.value,
            valid_after: message.validAfter,
            valid_before: message.validBefore,
            nonce: message.nonce,
            signature,
            gas_reserved: gasReserved,
          });
        });
      } catch (error) {
        // Two requests raced past the checks above: the database lets one through.
        const constraint = uniqueViolation(error);
        if (constraint === "payer_authorizations_one_open")
          throw new ApiError(
            409,
            "payment_in_progress",
            "a payment to this invoice or link is already on its way; wait for it to be counted",
          );
        if (constraint !== null)
          throw new ApiError(409, "authorization_used", "this authorization was submitted before");
        throw error;
      }
      deps.log.info("payer authorization accepted", {
        authorization_id: row.id,
        slug,
        deposit_address: row.deposit_address,
        amount: formatUsdc(row.value),
      });

      const deadline = Date.now() + settings.submitWaitMs;
      while (!SETTLED.has(row.status) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
        row = (await findPayerAuthorization(deps.db, row.id)) ?? row;
      }
      const answer = present(deps, slug, row);
      return SETTLED.has(row.status) ? c.json(answer, 200) : c.json(answer, 202);
    },
    validationHook(createAuthorizationKnownKeys),
  );

  app.openapi(getRouteSpec, async (c) => {
    const { slug, id } = c.req.valid("param");
    const [payable, row] = await Promise.all([
      findPayable(deps.db, slug),
      findPayerAuthorization(deps.db, id),
    ]);
    // Only under its own slug: an id is no key to another invoice's payments.
    if (!payable || !row || row.deposit_address !== payable.depositAddress.toLowerCase())
      throw notFound("authorization");
    c.header("Cache-Control", "no-store");
    return c.json(present(deps, slug, row), 200);
  });
}
