import type { Address, PublicClient } from "viem";
import { priceFeedAbi } from "../abis/priceFeed.ts";
import type { FeedRound } from "../domain/rates.ts";

/**
 * The round `address`'s feed answered at `blockNumber` (its `latestRoundData()` in that block's
 * state), or null when it answers nothing (no contract, a revert such as "No data present").
 * Reading at the payment's block, not "now", is what makes a conversion deterministic and
 * reorg-safe: the same block always gives the same round. An RPC that fails throws.
 */
export async function feedRoundAt(
  client: Pick<PublicClient, "readContract">,
  address: Address,
  blockNumber: bigint,
): Promise<FeedRound | null> {
  try {
    const [roundId, answer, startedAt, updatedAt] = await client.readContract({
      address,
      abi: priceFeedAbi,
      functionName: "latestRoundData",
      blockNumber,
    });
    return { roundId, answer, startedAt, updatedAt };
  } catch (error) {
    if (isRevert(error)) return null;
    throw error;
  }
}

/** A call the chain executed and refused (or found no code for), as opposed to a failed RPC. */
function isRevert(error: unknown): boolean {
  const names: string[] = [];
  for (let e = error as { name?: string; cause?: unknown } | undefined; e; e = e.cause as never)
    if (e.name) names.push(e.name);
  return names.some((name) =>
    ["ContractFunctionRevertedError", "ContractFunctionZeroDataError"].includes(name),
  );
}
