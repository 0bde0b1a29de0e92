import type { Address, Hex } from "viem";
import { usdcSelectors } from "../../abis/usdc.ts";

/** One static ABI argument (an address or a uint256), as its 32-byte word. */
function word(value: Address | bigint): string {
  const digits = typeof value === "bigint" ? value.toString(16) : value.toLowerCase().slice(2);
  return digits.padStart(64, "0");
}

/** USDC `balanceOf(account)` call data. */
export function balanceOfCall(account: Address): Hex {
  return `${usdcSelectors.balanceOf}${word(account)}`;
}

/** USDC `transfer(to, amount)` call data. */
export function transferCall(to: Address, amount: bigint): Hex {
  return `${usdcSelectors.transfer}${word(to)}${word(amount)}`;
}
