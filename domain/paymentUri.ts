import type { Address } from "viem";
import { BASE_CHAIN_ID, USDC_ADDRESS } from "./constants.ts";

/**
 * An EIP-681 URI asking a wallet to send exactly `amount` USDC base units to `deposit` on
 * Base: `ethereum:<USDC>@8453/transfer?address=<deposit>&uint256=<amount>`; without `uint256`
 * when no amount can be asked (a currency-priced invoice while no rate can be read).
 */
export function usdcPaymentUri(deposit: Address, amount: bigint | null): string {
  const request = `ethereum:${USDC_ADDRESS}@${BASE_CHAIN_ID}/transfer?address=${deposit}`;
  return amount === null ? request : `${request}&uint256=${amount}`;
}
