import { type Address, getAddress, type Hex, recoverTypedDataAddress } from "viem";
import { formatUsdc } from "./money.ts";
import { type TransferAuthorization, transferAuthorizationTypedData } from "./usdcAuthorization.ts";

/**
 * How long a payer's authorization may be valid, as Remit relays it: long enough for the
 * relayer to submit it (at least `minRemainingSeconds` left when it arrives), short enough that
 * a signature cannot be held back and played later (at most `maxValiditySeconds` ahead).
 */
export const AUTHORIZATION_WINDOW = { minRemainingSeconds: 60, maxValiditySeconds: 3600 } as const;

/** A refusal of a payer's authorization: a stable code, the field at fault, words for people. */
export type AuthorizationRefusal = {
  code:
    | "wrong_recipient"
    | "wrong_amount"
    | "not_yet_valid"
    | "authorization_expired"
    | "validity_too_long";
  field: "to" | "value" | "valid_after" | "valid_before";
  message: string;
};

/**
 * Why an authorization's terms cannot pay what `depositAddress` is owed now, or null when they
 * can: it must pay exactly `due` (no more, no less: a relayed payment settles the invoice or
 * link, nothing else) to the deposit address, be valid already and stay valid long enough to
 * be submitted, and not for long. The signature and the chain are judged elsewhere.
 *
 * @example refuseAuthorizationTerms(message, { depositAddress, due: 150_000_000n, nowSeconds: 1_800_000_000n })
 */
export function refuseAuthorizationTerms(
  message: TransferAuthorization,
  expected: { depositAddress: Address; due: bigint; nowSeconds: bigint },
): AuthorizationRefusal | null {
  const { minRemainingSeconds, maxValiditySeconds } = AUTHORIZATION_WINDOW;
  if (getAddress(message.to) !== getAddress(expected.depositAddress))
    return {
      code: "wrong_recipient",
      field: "to",
      message: `the authorization pays ${message.to}; this payment's deposit address is ${getAddress(expected.depositAddress)}`,
    };
  if (message.value !== expected.due)
    return {
      code: "wrong_amount",
      field: "value",
      message: `the authorization is for ${formatUsdc(message.value)} USDC; exactly ${formatUsdc(expected.due)} USDC is due`,
    };
  if (message.validAfter > expected.nowSeconds)
    return {
      code: "not_yet_valid",
      field: "valid_after",
      message: "the authorization is not valid yet (valid_after is in the future)",
    };
  if (message.validBefore < expected.nowSeconds + BigInt(minRemainingSeconds))
    return {
      code: "authorization_expired",
      field: "valid_before",
      message: `the authorization has expired, or expires within ${minRemainingSeconds} s: sign a new one`,
    };
  if (message.validBefore > expected.nowSeconds + BigInt(maxValiditySeconds))
    return {
      code: "validity_too_long",
      field: "valid_before",
      message: `valid_before must be at most ${maxValiditySeconds} s from now`,
    };
  return null;
}

/**
 * The address whose key made `signature` over the authorization (EIP-712, USDC's domain on
 * Base), or null when none can be recovered from it. Pure: no chain is asked.
 *
 * @example (await signerOfAuthorization(message, signature)) === message.from
 */
export async function signerOfAuthorization(
  message: TransferAuthorization,
  signature: Hex,
): Promise<Address | null> {
  try {
    return getAddress(
      await recoverTypedDataAddress({ ...transferAuthorizationTypedData(message), signature }),
    );
  } catch {
    return null;
  }
}

/**
 * Whether the relayer may take on one more payment of `reserve` gas today: what it has spent
 * (and reserved for payments in flight) since midnight UTC, plus this one, within `budget`.
 * A budget of 0 relays nothing.
 */
export function withinGasBudget(spentToday: bigint, reserve: bigint, budget: bigint): boolean {
  return budget > 0n && spentToday + reserve <= budget;
}

/** The start of `now`'s day in UTC, from which the daily gas budget is counted. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Whole seconds until the next UTC midnight, when the daily gas budget starts afresh (≥ 1). */
export function secondsUntilNextUtcDay(now: Date): number {
  const next = utcDayStart(now).getTime() + 86_400_000;
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Where a relayed authorization is: `pending` (stored, queued), `sending` (the worker is
 * submitting it), `submitted` (its transaction hash is known), `mined` (in a block, succeeded),
 * `failed` (refused at submission or reverted; the reason is kept), `expired` (its validBefore
 * passed before it could be sent). The first three block another for the same deposit address.
 */
export const PAYER_AUTHORIZATION_STATUSES = [
  "pending",
  "sending",
  "submitted",
  "mined",
  "failed",
  "expired",
] as const;
export type PayerAuthorizationStatus = (typeof PAYER_AUTHORIZATION_STATUSES)[number];

/** What a client sees: `sending` is the worker's business, still `pending` to them. */
export const PUBLIC_AUTHORIZATION_STATUSES = [
  "pending",
  "submitted",
  "mined",
  "failed",
  "expired",
] as const;
export const publicAuthorizationStatus = (status: PayerAuthorizationStatus) =>
  status === "sending" ? "pending" : status;
