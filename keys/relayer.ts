import { type HDAccount, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { DEV_MNEMONIC } from "../domain/constants.ts";
import { hdAccountOf } from "../internal/hdAccount.ts";

/**
 * The account that submits sweeps and pays their gas: RELAYER_PRIVATE_KEY, or on the local
 * chain anvil's account 9 (funded with ETH, never used by the tests' payers). Against a real
 * chain there is no default: `npm start` refuses to start without one while sweeping is on.
 */
export function relayerAccount(settings: {
  /** RELAYER_PRIVATE_KEY, if set. */
  privateKey: string | undefined;
  localChain: boolean;
}): PrivateKeyAccount | HDAccount | null {
  if (settings.privateKey) return privateKeyToAccount(settings.privateKey as `0x${string}`);
  return settings.localChain ? hdAccountOf(DEV_MNEMONIC, { addressIndex: 9 }) : null;
}
