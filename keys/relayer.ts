import {
  type HDAccount,
  mnemonicToAccount,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from "viem/accounts";
import { DEV_MNEMONIC } from "../chain/constants.ts";
import type { Env } from "../platform/env.ts";

/**
 * The account that submits sweeps and pays their gas: RELAYER_PRIVATE_KEY, or on the local
 * chain anvil's account 9 (funded with ETH, never used by the tests' payers). Against a real
 * chain there is no default: `npm start` refuses to start without one while sweeping is on.
 */
export function relayerAccount(
  env: Pick<Env, "RELAYER_PRIVATE_KEY" | "localChain">,
): PrivateKeyAccount | HDAccount | null {
  if (env.RELAYER_PRIVATE_KEY) return privateKeyToAccount(env.RELAYER_PRIVATE_KEY as `0x${string}`);
  return env.localChain ? mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 9 }) : null;
}
