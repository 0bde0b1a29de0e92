import { createRoute } from "@hono/zod-openapi";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { Context } from "hono";
import { getAddress, type Hex } from "viem";
import { authorizationAcceptor } from "../../app/payments/acceptAuthorization.ts";
import {
  findPayable,
  type Payable,
  type PayerAuthorizationRow,
  paymentInProgress,
} from "../../app/payments/verifyAuthorization.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { publicPdfUrl, x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { amountDue } from "../../domain/moneyRules.ts";
import type { TransferAuthorization } from "../../domain/usdcAuthorization.ts";
import {
  X402_NETWORK,
  X402_SCHEME,
  X402_SETTLE_FAILED,
  X402_SETTLEMENT_PENDING,
  X402_VERSION,
  type X402Resource,
  x402PaymentRequired,
  x402Reason,
  x402Settlement,
} from "../../domain/x402.ts";
import { requestHeader } from "../../internal/requestHeader.ts";
import type { AppEnv } from "../appEnv.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError, ErrorResponseSchema, errorBody, notFound, RetryLaterError } from "../errors.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import {
  X402ParamsSchema,
  X402PaymentPayloadSchema,
  type X402Receipt,
  X402ReceiptSchema,
  x402ProcessingExample,
  x402ReceiptExample,
} from "./schema.ts";

const header = (description: string) => ({ schema: { type: "string" as const }, description });

const route = createRoute({
  method: "get",
  path: "/api/x402/{slug}",
  tags: ["x402"],
  summary: "Pay an invoice or payment link over x402 (no authentication)",
  description:
    "The invoice's or link's `x402_url`: an x402 version 2 resource (coinbase/x402, `exact` scheme on EVM) for software that pays bills. " +
    "Without `PAYMENT-SIGNATURE`, while something is due: `402` with `PAYMENT-REQUIRED` (base64 JSON `PaymentRequired`) asking for exactly the amount still due: " +
    'scheme `exact`, network `eip155:8453`, asset Base\'s USDC, `payTo` the deposit address, `extra` `{name: "USD Coin", version: "2"}`, `maxTimeoutSeconds` 300. ' +
    "With `PAYMENT-SIGNATURE` (base64 JSON `PaymentPayload`: an EIP-3009 authorization): verified exactly as `POST /api/payments/{slug}/authorizations` verifies, " +
    "relayed by Remit's relayer (the payer needs no ETH), and answered, once its transaction is in a block, `200` with `PAYMENT-RESPONSE` " +
    "(base64 JSON `SettlementResponse`: `success`, `transaction`, `network`, `payer`) and the receipt. " +
    "Nothing due (paid, excess, void): `200` with the receipt (`paid`, `void`), never a payment requirement; a relayed payment on its way: `200` `processing`. " +
    "A payment pays exactly what is due now: after a partial payment the next `402` asks for the rest. " +
    "An invoice or link priced in a currency is asked for in USDC at its standing quote (the page's and the checkout's); `503` `rate_unavailable` while no fresh rate can be read. " +
    "Like the gasless route: `503` `gasless_unavailable` when this service relays nothing (pay the deposit address with a plain transfer), `chain_unavailable` when the Base RPC does not answer.",
  request: { params: X402ParamsSchema },
  responses: {
    200: {
      ...jsonResponse(
        "Settled by this request (`settled`, with `PAYMENT-RESPONSE`), or nothing to pay (`paid`, `void`, `processing`)",
        X402ReceiptSchema,
        x402ReceiptExample,
      ),
      headers: {
        "PAYMENT-RESPONSE": header(
          'After a payment: base64 JSON `{success: true, transaction, network: "eip155:8453", payer}`.',
        ),
      },
    },
    202: {
      ...jsonResponse(
        "The payment's transaction is sent but not in a block within the wait: `processing`; follow `status_url`. `PAYMENT-RESPONSE` has `success: false`, `errorReason: settlement_pending` and the `transaction`.",
        X402ReceiptSchema,
        x402ProcessingExample,
      ),
      headers: { "PAYMENT-RESPONSE": header("base64 JSON `SettlementResponse`.") },
    },
    400: {
      ...jsonResponse(
        "`PAYMENT-SIGNATURE` is not base64 JSON of an x402 `exact` EVM payload: `invalid_payload` (also in `PAYMENT-REQUIRED`'s `error`, with what is due).",
        ErrorResponseSchema,
      ),
      headers: { "PAYMENT-REQUIRED": header("base64 JSON `PaymentRequired`.") },
    },
    402: {
      ...jsonResponse(
        "Payment required: `PAYMENT-REQUIRED` says what to pay. After a refused payment its `error` names the reason in x402's terms " +
          "(`invalid_exact_evm_payload_authorization_value_mismatch`, `invalid_exact_evm_payload_recipient_mismatch`, " +
          "`invalid_exact_evm_payload_authorization_valid_after`, `invalid_exact_evm_payload_authorization_valid_before`, " +
          "`invalid_exact_evm_payload_signature`, `insufficient_funds`, `invalid_exact_evm_nonce_already_used`, " +
          "`invalid_exact_evm_transaction_simulation_failed`, `invalid_x402_version`, `invalid_scheme`, `invalid_network`, " +
          "`invalid_payment_requirements`, `payment_in_progress`, `relayer_budget_exhausted`) and nothing is sent; " +
          "the body's `error.code` is the gasless route's code for it. A relayed transaction that failed: `PAYMENT-RESPONSE` with `success: false`, `errorReason: invalid_transaction_state`.",
        ErrorResponseSchema,
      ),
      headers: {
        "PAYMENT-REQUIRED": header("base64 JSON `PaymentRequired` (x402 version 2)."),
        "PAYMENT-RESPONSE": header("Only when a relayed transaction failed."),
      },
    },
    ...errorResponses(404, 429),
  },
});

/** Relayed-authorization statuses after which the x402 request has its answer. */
const FINAL = new Set(["mined", "failed", "expired"]);

const resourceOf = (deps: Pick<AppDeps, "baseUrl">, payable: Payable): X402Resource => ({
  url: x402Url(deps, payable.slug),
  kind: payable.kind,
  merchantName: payable.merchantName,
  label: payable.label,
});

/** The receipt of a payable: of `payment` when named, else of what it has received. */
function receiptOf(
  deps: Pick<AppDeps, "baseUrl">,
  payable: Payable,
  payment: { row: PayerAuthorizationRow; status: "settled" | "processing" } | null,
): X402Receipt {
  const due = payment ? amountDue(payable.due, payment.row.value) : payable.due;
  return {
    kind: payable.kind,
    slug: payable.slug,
    invoice_number: payable.kind === "invoice" ? payable.label : null,
    merchant_name: payable.merchantName,
    status: payment ? payment.status : payable.status === "void" ? "void" : "paid",
    amount: formatUsdc(payment ? payment.row.value : payable.received),
    amount_due: formatUsdc(due),
    tx_hash: payment ? payment.row.tx_hash : payable.latestTxHash,
    payer: payment ? getAddress(payment.row.payer) : null,
    pdf_url: payable.kind === "invoice" ? publicPdfUrl(deps, payable.slug) : null,
    status_url: `${deps.baseUrl}/api/payments/status/${payable.slug}`,
  };
}

/** A refusal the payer can act on: an x402 402 with the reason, and what is due now. */
class X402Refusal extends ApiError {
  constructor(
    readonly reason: string,
    code: string,
    message: string,
    kind: "invalid" | "payment_required" = "payment_required",
  ) {
    super(kind, code, message);
  }
}

/** The signed authorization a `PAYMENT-SIGNATURE` header carries; throws an X402Refusal. */
function authorizationOf(value: string): { message: TransferAuthorization; signature: Hex } {
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(value);
  } catch {
    throw new X402Refusal(
      "invalid_payload",
      "invalid_payload",
      "PAYMENT-SIGNATURE must be base64-encoded JSON",
      "invalid",
    );
  }
  const parsed = X402PaymentPayloadSchema.safeParse(decoded);
  if (!parsed.success)
    throw new X402Refusal(
      "invalid_payload",
      "invalid_payload",
      "PAYMENT-SIGNATURE is not an x402 exact EVM payload (payload.authorization and payload.signature)",
      "invalid",
    );
  const { x402Version, accepted, payload } = parsed.data;
  if (x402Version !== X402_VERSION)
    throw new X402Refusal(
      "invalid_x402_version",
      "invalid_x402_version",
      `only x402 version ${X402_VERSION} is spoken here`,
    );
  if (accepted.scheme !== X402_SCHEME)
    throw new X402Refusal("invalid_scheme", "invalid_scheme", "only the exact scheme is accepted");
  if (accepted.network !== X402_NETWORK)
    throw new X402Refusal(
      "invalid_network",
      "invalid_network",
      `only ${X402_NETWORK} (Base) is accepted`,
    );
  if (getAddress(accepted.asset as Hex) !== USDC_ADDRESS)
    throw new X402Refusal(
      "invalid_payment_requirements",
      "invalid_asset",
      `only Base's USDC (${USDC_ADDRESS}) is accepted`,
    );
  const { authorization } = payload;
  return {
    message: {
      from: getAddress(authorization.from),
      to: getAddress(authorization.to),
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce.toLowerCase() as Hex,
    },
    signature: payload.signature.toLowerCase() as Hex,
  };
}

/**
 * The x402 resource of every invoice and payment link (`x402_url`). It is a second door to the
 * gasless payment path, not a second path: the same verification and acceptance
 * (app/payments/acceptAuthorization.ts), the same queue, the worker's one submission path; it
 * only waits longer (for the receipt) and speaks x402's headers.
 */
export function registerX402Resource(app: Router, deps: AppDeps): void {
  const acceptor = authorizationAcceptor(deps);
  const settleWaitMs = deps.x402?.settleWaitMs ?? 0;

  const paymentRequired = (
    c: Context<AppEnv>,
    payable: Payable,
    refusal: ApiError & { reason?: string },
  ) => {
    c.header(
      "PAYMENT-REQUIRED",
      encodePaymentRequiredHeader(
        x402PaymentRequired(
          resourceOf(deps, payable),
          payable.due,
          payable.depositAddress,
          refusal.reason,
        ),
      ),
    );
    if (refusal instanceof RetryLaterError)
      c.header("Retry-After", String(refusal.retryAfterSeconds));
    return c.json(errorBody(refusal, c.get("requestId")), refusal.kind === "invalid" ? 400 : 402);
  };

  app.openapi(route, async (c) => {
    const { slug } = c.req.valid("param");
    c.header("Cache-Control", "no-store");
    const payable = await findPayable(deps, slug);
    if (!payable) throw notFound("invoice or payment link");
    if (payable.due === 0n) return c.json(receiptOf(deps, payable, null), 200);

    const signed = requestHeader(c, "payment-signature");
    if (signed === undefined) {
      // A relayed payment of what is due is on its way: nothing more is asked for meanwhile.
      const inFlight = await paymentInProgress(deps, payable);
      if (inFlight)
        return c.json(
          receiptOf(deps, payable, {
            row: inFlight,
            status: inFlight.status === "mined" ? "settled" : "processing",
          }),
          200,
        );
      const what = payable.kind === "invoice" ? `invoice ${payable.label}` : "this payment link";
      return paymentRequired(
        c,
        payable,
        new ApiError(
          "payment_required",
          "payment_required",
          `${formatUsdc(payable.due)} USDC is due on ${what}: pay it over x402 (PAYMENT-REQUIRED), or send it to ${payable.depositAddress} on Base`,
        ),
      );
    }
    if (!acceptor.available)
      throw new ApiError(
        "unavailable",
        "gasless_unavailable",
        `this service relays no payments: send the USDC to ${payable.depositAddress} on Base with a plain transfer`,
      );

    let row: PayerAuthorizationRow;
    try {
      const { message, signature } = authorizationOf(signed);
      row = await acceptor.accept(payable, message, signature, new Date());
    } catch (error) {
      if (error instanceof X402Refusal) return paymentRequired(c, payable, error);
      if (!(error instanceof ApiError)) throw error;
      // Paid meanwhile (another payment counted first): the receipt, never a requirement.
      if (error.code === "nothing_due")
        return c.json(receiptOf(deps, (await findPayable(deps, slug)) ?? payable, null), 200);
      // A verdict on this payment (409, 422, the gas budget): x402's 402 with its reason. Rates,
      // an unreachable chain: their own status, as on every route.
      if (
        error.kind === "conflict" ||
        error.kind === "unprocessable" ||
        error.code === "relayer_budget_exhausted"
      )
        return paymentRequired(
          c,
          payable,
          Object.assign(error, { reason: x402Reason(error.code) }),
        );
      throw error;
    }

    const settled = await acceptor.follow(
      row,
      (status) => FINAL.has(status),
      Date.now() + settleWaitMs,
    );
    const payer = getAddress(settled.payer);
    if (settled.status === "mined") {
      c.header(
        "PAYMENT-RESPONSE",
        encodePaymentResponseHeader(
          x402Settlement({ success: true, transaction: settled.tx_hash, payer }),
        ),
      );
      return c.json(receiptOf(deps, payable, { row: settled, status: "settled" }), 200);
    }
    if (settled.status === "failed" || settled.status === "expired") {
      c.header(
        "PAYMENT-RESPONSE",
        encodePaymentResponseHeader(
          x402Settlement({
            success: false,
            errorReason: X402_SETTLE_FAILED,
            transaction: settled.tx_hash,
            payer,
          }),
        ),
      );
      return paymentRequired(
        c,
        payable,
        Object.assign(
          new ApiError(
            "payment_required",
            settled.status === "expired" ? "authorization_expired" : "settlement_failed",
            settled.error ?? "the authorization expired before the relayer could send it",
          ),
          { reason: X402_SETTLE_FAILED },
        ),
      );
    }
    c.header(
      "PAYMENT-RESPONSE",
      encodePaymentResponseHeader(
        x402Settlement({
          success: false,
          errorReason: X402_SETTLEMENT_PENDING,
          transaction: settled.tx_hash,
          payer,
        }),
      ),
    );
    return c.json(receiptOf(deps, payable, { row: settled, status: "processing" }), 202);
  });
}
