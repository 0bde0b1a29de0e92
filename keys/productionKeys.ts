import { type Env, EnvError } from "../internal/env.ts";

/** Refuses, before anything starts, a real chain without explicitly configured keys. */
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
}
