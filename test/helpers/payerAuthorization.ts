import { randomBytes } from "node:crypto";
import type { Address, Hex, LocalAccount } from "viem";
import { transferAuthorizationTypedData } from "../../domain/usdcAuthorization.ts";

/** The JSON body of `POST /api/payments/{slug}/authorizations`. */
export type AuthorizationBody = {
  from: string;
  to: string;
  value: string;
  valid_after: string;
  valid_before: string;
  nonce: string;
  signature: string;
};

/**
 * A payer's EIP-3009 authorization of `value` to `to`, signed by `signer` (the payer, unless a
 * test forges one), as the checkout page sends it: a random nonce, valid for ten minutes.
 */
export async function signedAuthorization(
  signer: LocalAccount,
  terms: {
    to: Address;
    value: bigint;
    from?: Address;
    validBefore?: bigint;
    validAfter?: bigint;
    nonce?: Hex;
  },
): Promise<AuthorizationBody> {
  const message = {
    from: terms.from ?? signer.address,
    to: terms.to,
    value: terms.value,
    validAfter: terms.validAfter ?? 0n,
    validBefore: terms.validBefore ?? BigInt(Math.floor(Date.now() / 1000) + 600),
    nonce: terms.nonce ?? (`0x${randomBytes(32).toString("hex")}` as Hex),
  };
  const signature = await signer.signTypedData(transferAuthorizationTypedData(message));
  return {
    from: message.from,
    to: message.to,
    value: String(message.value),
    valid_after: String(message.validAfter),
    valid_before: String(message.validBefore),
    nonce: message.nonce,
    signature,
  };
}
