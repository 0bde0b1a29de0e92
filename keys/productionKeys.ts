import { type Env, EnvError } from "../internal/env.ts";
import { isPublicTestKey, isPublicTestMnemonic } from "./publicTestKeys.ts";

/**
 * Refuses, before anything starts, a real chain without explicitly configured keys, or with
 * keys everyone has (a development configuration carried over: anvil's mnemonic or accounts).
 */
export function requireProductionKeys(
  env: Pick<Env, "localChain" | "DEPOSIT_MNEMONIC" | "SWEEP" | "RELAYER_PRIVATE_KEY">,
): void {
  if (env.localChain) return;
  if (!env.DEPOSIT_MNEMONIC)
    throw new EnvError(
      "DEPOSIT_MNEMONIC is required with BASE_RPC_URL: it is the seed of every deposit address (no development seed is generated outside the local chain)",
    );
  if (env.SWEEP === "on" && !env.RELAYER_PRIVATE_KEY)
    throw new EnvError(
      "RELAYER_PRIVATE_KEY is required with BASE_RPC_URL while SWEEP is on: it pays the sweeps' gas",
    );
  if (isPublicTestMnemonic(env.DEPOSIT_MNEMONIC))
    throw new EnvError(
      "DEPOSIT_MNEMONIC is a published test mnemonic (anvil's, Hardhat's or another tool's): anyone can take what reaches its addresses; set a seed of your own with BASE_RPC_URL",
    );
  if (env.RELAYER_PRIVATE_KEY && isPublicTestKey(env.RELAYER_PRIVATE_KEY as `0x${string}`))
    throw new EnvError(
      "RELAYER_PRIVATE_KEY is a published test key (a default account of anvil's, Hardhat's or another tool's test mnemonic): anyone can take its ETH; set a key of your own with BASE_RPC_URL",
    );
}
