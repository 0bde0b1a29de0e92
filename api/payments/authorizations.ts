import { createRoute } from "@hono/zod-openapi";
import { getAddress, type Hex } from "viem";
import { authorizationAcceptor } from "../../app/payments/acceptAuthorization.ts";
import {
  authorizationMessage,
  authorizationUnder,
  findPayable,
  type PayerAuthorizationRow,
} from "../../app/payments/verifyAuthorization.ts";
import { formatUsdc } from "../../domain/money.ts";
import { publicAuthorizationStatus } from "../../domain/relayedAuthorization.ts";
import type { AppDeps } from "../deps.ts";
import { ErrorResponseSchema, notFound } from "../errors.ts";
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

/**
 * The gasless payment routes. The API holds no key: it verifies and stores the payer's
 * authorization (app/payments/acceptAuthorization.ts), the insert queues the worker's
 * `relay_authorization` job, and the request waits (polling the row) for the worker to submit.
 */
export function registerPaymentAuthorizations(app: Router, deps: AppDeps): void {
  const acceptor = authorizationAcceptor(deps);

  app.openapi<typeof createRouteSpec>(
    createRouteSpec,
    async (c) => {
      const { slug } = c.req.valid("param");
      const body = c.req.valid("json");
      const payable = await findPayable(deps, slug);
      if (!payable) throw notFound("payment");
      const row = await acceptor.accept(
        payable,
        authorizationMessage(body),
        body.signature.toLowerCase() as Hex,
        new Date(),
      );
      const settled = await acceptor.follow(
        row,
        (status) => SETTLED.has(status),
        Date.now() + (deps.gasless?.submitWaitMs ?? 0),
      );
      const answer = present(deps, slug, settled);
      return SETTLED.has(settled.status) ? c.json(answer, 200) : c.json(answer, 202);
    },
    validationHook(createAuthorizationKnownKeys),
  );

  app.openapi(getRouteSpec, async (c) => {
    const { slug, id } = c.req.valid("param");
    // Only under its own slug: an id is no key to another invoice's payments.
    const row = await authorizationUnder(deps, slug, id);
    if (!row) throw notFound("authorization");
    c.header("Cache-Control", "no-store");
    return c.json(present(deps, slug, row), 200);
  });
}
