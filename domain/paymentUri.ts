import type { Address } from "viem";
import { BASE_CHAIN_ID, USDC_ADDRESS } from "./constants.ts";

/**
 * An EIP-681 URI asking a wallet to send exactly `amount` USDC base units to `deposit` on
 * Base: `ethereum:<USDC>@8453/transfer?address=<deposit>&uint256=<amount>`.
 */
export function usdcPaymentUri(deposit: Address, amount: bigint): string {
  return `ethereum:${USDC_ADDRESS}@${BASE_CHAIN_ID}/transfer?address=${deposit}&uint256=${amount}`;
}
