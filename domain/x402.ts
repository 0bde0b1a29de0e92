import type { PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { type Address, getAddress } from "viem";
import { BASE_CHAIN_ID, USDC_ADDRESS } from "./constants.ts";
import { USDC_EIP712_DOMAIN } from "./usdcAuthorization.ts";

/**
 * x402 version 2 (coinbase/x402, specs/x402-specification-v2.md, transports-v2/http.md and
 * schemes/exact/scheme_exact_evm.md) as Remit speaks it: one `exact` EIP-3009 requirement in
 * Base's USDC for what an invoice or link still owes, paid to its deposit address. Pure: the
 * route (api/x402/) encodes these with @x402/core's header encoders.
 */

export const X402_VERSION = 2;
/** CAIP-2 for Base mainnet (the local chain uses the same id). */
export const X402_NETWORK = `eip155:${BASE_CHAIN_ID}` as const;
export const X402_SCHEME = "exact";

/**
 * How long the payer's signature may be valid. The official clients sign `validBefore = now +
 * maxTimeoutSeconds`; Remit's relayer takes an authorization with at least 60 s and at most an
 * hour left (AUTHORIZATION_WINDOW), so five minutes leaves room for slow clients and skewed
 * clocks on both sides while keeping a held-back signature short-lived.
 */
export const X402_MAX_TIMEOUT_SECONDS = 300;

/** The one way to pay `due` base units of USDC into `depositAddress`. */
export function x402Requirement(due: bigint, depositAddress: Address): PaymentRequirements {
  return {
    scheme: X402_SCHEME,
    network: X402_NETWORK,
    amount: due.toString(),
    asset: USDC_ADDRESS,
    payTo: getAddress(depositAddress),
    maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
    // The EIP-712 domain the payer signs under: USDC's on Base ("USD Coin", version "2").
    extra: { name: USDC_EIP712_DOMAIN.name, version: USDC_EIP712_DOMAIN.version },
  };
}

/** What is being paid for, as the 402 names it. */
export type X402Resource = {
  url: string;
  kind: "invoice" | "link";
  merchantName: string | null;
  /** An invoice's number (`INV-0001`); a link's description. */
  label: string;
};

/** The human description of the resource: who asks for the money, and for what. */
export function x402Description(resource: X402Resource): string {
  const from = resource.merchantName ? ` from ${resource.merchantName}` : "";
  return resource.kind === "invoice"
    ? `Invoice ${resource.label}${from}`
    : `Payment${from}: ${resource.label}`;
}

/** The `PAYMENT-REQUIRED` body: what is due now, and (after a refused payment) the reason. */
export function x402PaymentRequired(
  resource: X402Resource,
  due: bigint,
  depositAddress: Address,
  error?: string,
): PaymentRequired {
  return {
    x402Version: X402_VERSION,
    ...(error === undefined ? {} : { error }),
    resource: {
      url: resource.url,
      description: x402Description(resource),
      mimeType: "application/json",
    },
    accepts: [x402Requirement(due, depositAddress)],
  };
}

/** The `PAYMENT-RESPONSE` body of a settlement, or of one that failed or is still pending. */
export function x402Settlement(
  outcome: { transaction: string | null; payer: Address } & (
    | { success: true }
    | { success: false; errorReason: string }
  ),
): SettleResponse {
  return {
    success: outcome.success,
    ...(outcome.success ? {} : { errorReason: outcome.errorReason }),
    transaction: outcome.transaction ?? "",
    network: X402_NETWORK,
    payer: getAddress(outcome.payer),
  };
}

/**
 * The x402 reason for each of the gasless route's refusal codes
 * (app/payments/verifyAuthorization.ts). The specification's own (x402-specification-v2.md §9)
 * where it names one; the reference EVM facilitator's (@x402/evm) for a used nonce and a failed
 * simulation, which the specification does not name; Remit's own code for what is Remit's alone
 * (one payment on its way per deposit address, the relayer's gas budget).
 */
export const X402_REASONS: Record<string, string> = {
  wrong_recipient: "invalid_exact_evm_payload_recipient_mismatch",
  wrong_amount: "invalid_exact_evm_payload_authorization_value_mismatch",
  not_yet_valid: "invalid_exact_evm_payload_authorization_valid_after",
  authorization_expired: "invalid_exact_evm_payload_authorization_valid_before",
  validity_too_long: "invalid_exact_evm_payload_authorization_valid_before",
  invalid_signature: "invalid_exact_evm_payload_signature",
  insufficient_balance: "insufficient_funds",
  authorization_used: "invalid_exact_evm_nonce_already_used",
  simulation_failed: "invalid_exact_evm_transaction_simulation_failed",
  payment_in_progress: "payment_in_progress",
  relayer_budget_exhausted: "relayer_budget_exhausted",
};

/** The x402 reason for a refusal code; unknown codes are passed through. */
export const x402Reason = (code: string): string => X402_REASONS[code] ?? code;

/** The reason of a relayed transaction that failed, or expired before it could be sent. */
export const X402_SETTLE_FAILED = "invalid_transaction_state";
/** A settlement whose transaction is sent but not mined within the wait (@x402/core's term). */
export const X402_SETTLEMENT_PENDING = "settlement_pending";
