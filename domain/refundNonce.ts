import { type Address, encodePacked, type Hex, keccak256 } from "viem";

/**
 * The EIP-3009 nonce of a refund: keccak256("remit-refund" ‖ from ‖ refund id). Deterministic,
 * so a retried, duplicated or crashed-and-restarted submission signs the same authorization,
 * which USDC executes once: a refund can never pay twice. The prefix keeps it apart from every
 * sweep nonce (domain/sweepNonce.ts hashes an address and a number, a preimage of another length).
 *
 * @example refundNonce("0x…", "4f1c…-…")
 */
export function refundNonce(from: Address, refundId: string): Hex {
  return keccak256(encodePacked(["string", "address", "string"], ["remit-refund", from, refundId]));
}

/**
 * The EIP-3009 nonce of a payout out of a managed wallet: keccak256("remit-payout" ‖ from ‖
 * payout id), fixed when the payout is recorded, so however often it is submitted USDC
 * executes it once. Its prefix keeps it apart from every refund's and sweep's nonce.
 */
export function payoutNonce(from: Address, payoutId: string): Hex {
  return keccak256(encodePacked(["string", "address", "string"], ["remit-payout", from, payoutId]));
}
