import { EnvError } from "../internal/env.ts";
import type { Logger } from "../internal/logger.ts";
import { devSecretFile, type SecretSource } from "./devSecretFile.ts";
import { isValidMnemonic, newMnemonic } from "./hdWallet.ts";

/**
 * The service seed: DEPOSIT_MNEMONIC when set. On the local simulated chain only, one is
 * generated once into `<DATA_DIR>/deposit-mnemonic.txt` (mode 0600), with a warning: it is for
 * development, where no real funds exist. Against a real chain Remit refuses to start without
 * one, rather than invent a seed nobody has backed up.
 */
export async function resolveMnemonic(source: SecretSource, log: Logger): Promise<string> {
  if (source.configured) return source.configured.trim();
  if (!source.localChain) {
    throw new EnvError(
      "DEPOSIT_MNEMONIC is required with BASE_RPC_URL: it is the seed of every deposit address",
    );
  }
  return devSecretFile(source.dataDir, "deposit-mnemonic.txt", {
    create: newMnemonic,
    isValid: isValidMnemonic,
    what: "a valid BIP-39 mnemonic",
    warning: (file) =>
      `generated a DEVELOPMENT seed in ${file}: every deposit address derives from it. ` +
      "Never use it with real funds; set DEPOSIT_MNEMONIC (and back it up) in production.",
    log,
  });
}
