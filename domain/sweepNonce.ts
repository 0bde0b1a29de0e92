import { type Address, encodePacked, type Hex, keccak256 } from "viem";

/**
 * The EIP-3009 nonce of a deposit address's nth sweep: keccak256(address ‖ n). Deterministic,
 * so a retried or duplicated sweep signs the same authorization, which USDC accepts once.
 *
 * @example sweepNonce("0x…", 1)
 */
export function sweepNonce(depositAddress: Address, sequence: number): Hex {
  return keccak256(encodePacked(["address", "uint256"], [depositAddress, BigInt(sequence)]));
}
