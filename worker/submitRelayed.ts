import type { Hex } from "viem";
import { usdcAbi } from "../abis/usdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import type { transferWithAuthorizationArgs } from "../domain/usdcAuthorization.ts";
import type { WorkerDeps } from "./deps.ts";

/** The relayer the worker sends with: the sweeps' account and wallet client. */
export type Relayer = NonNullable<WorkerDeps["sweep"]>;

/**
 * Sends a payer's `transferWithAuthorization` from the relayer, which pays the gas; answers
 * the transaction hash. The one place a gasless payment reaches the chain, on the same
 * account and wallet client as the sweeps (so both share the relayer's nonce sequence).
 *
 * @example const hash = await submitRelayed(deps.sweep, transferWithAuthorizationArgs(message, signature));
 */
export function submitRelayed(
  relayer: Relayer,
  args: ReturnType<typeof transferWithAuthorizationArgs>,
): Promise<Hex> {
  return relayer.wallet.writeContract({
    account: relayer.relayer,
    chain: null,
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "transferWithAuthorization",
    args,
  });
}
