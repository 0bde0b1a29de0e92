import type { Address, Hex } from "viem";
import { transferWithAuthorizationTypes } from "../abis/usdc.ts";
import { BASE_CHAIN_ID, USDC_ADDRESS } from "./constants.ts";

/**
 * USDC's EIP-712 domain on Base (FiatTokenV2_2): what every EIP-3009 signature is made under,
 * on the server and in the browser's wallet button (web/browser/wallet.ts) alike.
 */
export const USDC_EIP712_DOMAIN = {
  name: "USD Coin",
  version: "2",
  chainId: BASE_CHAIN_ID,
  verifyingContract: USDC_ADDRESS,
} as const;

export type TransferAuthorization = {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
};

/**
 * The typed data a holder signs to let anyone submit `transferWithAuthorization` for them:
 * the relayer pays the gas, the holder needs no ETH.
 *
 * @example account.signTypedData(transferAuthorizationTypedData(message))
 */
export function transferAuthorizationTypedData(message: TransferAuthorization) {
  return {
    domain: USDC_EIP712_DOMAIN,
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization" as const,
    message,
  };
}

/** `transferWithAuthorization`'s arguments, in the contract's order, for a signed message. */
export function transferWithAuthorizationArgs(message: TransferAuthorization, signature: Hex) {
  return [
    message.from,
    message.to,
    message.value,
    message.validAfter,
    message.validBefore,
    message.nonce,
    signature,
  ] as const;
}
