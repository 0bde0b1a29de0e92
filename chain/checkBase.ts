import { setTimeout as delay } from "node:timers/promises";
import { createPublicClient, http } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { BASE_CHAIN_ID, USDC_ADDRESS, USDC_DECIMALS } from "../domain/constants.ts";
import { describeRpcUrl, rpcRequest } from "./rpc.ts";

/** The chain is not Base with USDC, or cannot be asked: `npm start` refuses to go on. */
export class ChainCheckError extends Error {
  override name = "ChainCheckError";
}

/** The RPC did not answer within the retry window (as opposed to answering wrongly). */
export class RpcUnreachableError extends ChainCheckError {
  override name = "RpcUnreachableError";
}

export type CheckBaseChainOptions = {
  /** The setting the URL came from, named in every message (`BASE_RPC_URL`, …). */
  setting: string;
  /** How long an unreachable RPC is retried, with backoff, before giving up. */
  reachWithinMs?: number;
};

/**
 * Refuses any chain but Base: the RPC must report chain id 8453 and the contract at USDC's
 * canonical address must answer `name()` "USD Coin" and `decimals()` 6, as Circle's does. An
 * unreachable or rate-limiting RPC is retried with backoff (0.5 s doubling to 5 s) for
 * `reachWithinMs`; a wrong answer fails at once, with a message naming the problem.
 *
 * @example await checkBaseChain("https://mainnet.base.org", { setting: "BASE_RPC_URL" })
 */
export async function checkBaseChain(url: string, options: CheckBaseChainOptions): Promise<void> {
  const where = `${options.setting} (${describeRpcUrl(url)})`;
  const chainId = Number(await reachable(url, where, options.reachWithinMs ?? 60_000));
  if (chainId !== BASE_CHAIN_ID)
    throw new ChainCheckError(
      `${where} is chain id ${chainId}, not Base (${BASE_CHAIN_ID}): refusing to start`,
    );

  const client = createPublicClient({ chain: base, transport: http(url, { retryCount: 2 }) });
  const code = await client.getCode({ address: USDC_ADDRESS });
  if (!code || code === "0x")
    throw new ChainCheckError(
      `${where} has no contract at USDC's address ${USDC_ADDRESS}: refusing to start`,
    );
  const read = (functionName: "name" | "decimals") =>
    client
      .readContract({ address: USDC_ADDRESS, abi: usdcAbi, functionName })
      .catch((error: Error) => {
        throw new ChainCheckError(
          `${where}: the contract at ${USDC_ADDRESS} does not answer ${functionName}() as USDC does (${error.message.split("\n")[0]}): refusing to start`,
        );
      });
  const [name, decimals] = await Promise.all([read("name"), read("decimals")]);
  if (name !== "USD Coin" || decimals !== USDC_DECIMALS)
    throw new ChainCheckError(
      `${where}: the contract at ${USDC_ADDRESS} is "${name}" with ${decimals} decimals, not USDC ("USD Coin", ${USDC_DECIMALS}): refusing to start`,
    );
}

/** eth_chainId, retried with backoff while the RPC cannot be reached or rate-limits us. */
async function reachable(url: string, where: string, withinMs: number): Promise<string> {
  const deadline = Date.now() + withinMs;
  let wait = 500;
  for (;;) {
    try {
      return await rpcRequest<string>(url, "eth_chainId", []);
    } catch (error) {
      if (Date.now() + wait > deadline)
        throw new RpcUnreachableError(`cannot reach ${where}: ${(error as Error).message}`);
    }
    await delay(wait);
    wait = Math.min(wait * 2, 5_000);
  }
}
