// Payments and money out: payments and gasless authorizations, transaction lookups, x402, payouts.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type {
  ApiErrorBody,
  CreateAuthorizationRequest,
  CreatePayoutRequest,
  ListFilters,
  QueryOf,
  X402Answer,
  X402Receipt,
} from "../types.js";

/** `remit.payments`. */
export function payments(api: Operations) {
  return {
    /** Every counted payment matching `filters`, newest block first, page after page. */
    list: (filters: ListFilters<"/api/payments"> = {}, options?: RequestOptions) =>
      api.list("/api/payments", filters, options),
    /** `GET /api/payments/status/{slug}`: an invoice's or link's payment status (no key needed). */
    status: (slug: string, options?: RequestOptions) =>
      api.operation("get", "/api/payments/status/{slug}", { params: { slug }, options }),
    /**
     * Pays gaslessly with a signed EIP-3009 authorization, which Remit's relayer submits (no key
     * needed; the payer needs no ETH). Not retried: a payment is never sent twice.
     */
    authorize: (slug: string, body: CreateAuthorizationRequest, options?: RequestOptions) =>
      api.operation("post", "/api/payments/{slug}/authorizations", {
        params: { slug },
        body,
        options,
      }),
    /** Follows a gasless payment made with `authorize`. */
    authorization: (slug: string, id: string, options?: RequestOptions) =>
      api.operation("get", "/api/payments/{slug}/authorizations/{id}", {
        params: { slug, id },
        options,
      }),
  };
}

export type Payments = ReturnType<typeof payments>;

/** `remit.transactions`. */
export function transactions(api: Operations) {
  return {
    /** Where a payment's transaction went: its invoice or link and how it was counted (no key needed). */
    get: (
      txHash: string,
      query: QueryOf<"/api/transactions/{tx_hash}", "get"> | Record<string, never> = {},
      options?: RequestOptions,
    ) =>
      api.operation("get", "/api/transactions/{tx_hash}", {
        params: { tx_hash: txHash },
        query,
        options,
      }),
  };
}

export type Transactions = ReturnType<typeof transactions>;

/** `remit.x402`. */
export function x402(api: Operations) {
  return {
    /**
     * `GET /api/x402/{slug}`, the invoice's or link's `x402_url`. Without `paymentSignature`: a
     * 402 whose `paymentRequired` (base64 JSON) says what to pay, or the receipt when nothing is
     * due. With one (base64 JSON of an x402 `exact` payment payload): the payment, relayed by
     * Remit, answered with the receipt and `paymentResponse`. A 402 is an answer here, not an
     * error; every other error is a RemitError.
     */
    pay: async (
      slug: string,
      payment: { paymentSignature?: string } = {},
      options?: RequestOptions,
    ): Promise<X402Answer> => {
      const response = await api.http.send(
        api.request("get", "/api/x402/{slug}", {
          params: { slug },
          options,
          headers: payment.paymentSignature
            ? { "payment-signature": payment.paymentSignature }
            : undefined,
          answers: [402],
        }),
      );
      const headers = {
        paymentRequired: response.headers.get("payment-required"),
        paymentResponse: response.headers.get("payment-response"),
      };
      const body = (await response.json()) as unknown;
      return response.status === 402
        ? { status: 402, error: (body as ApiErrorBody).error, ...headers }
        : { status: response.status as 200 | 202, receipt: body as X402Receipt, ...headers };
    },
  };
}

export type X402 = ReturnType<typeof x402>;

/** `remit.payouts`. */
export function payouts(api: Operations) {
  return {
    /**
     * Pays out of the managed wallet to one of the account's registered payout wallets, under
     * an Idempotency-Key (generated unless given): a retry answers the first payout.
     */
    create: (body: CreatePayoutRequest, options?: RequestOptions) =>
      api.operation("post", "/api/merchant/payouts", { body, idempotent: true, options }),
    /** The last payouts, and the managed wallet's balance, reserved and available amounts. */
    list: (options?: RequestOptions) => api.operation("get", "/api/merchant/payouts", { options }),
  };
}

export type Payouts = ReturnType<typeof payouts>;
