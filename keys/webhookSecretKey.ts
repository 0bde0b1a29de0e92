import { randomBytes } from "node:crypto";
import { decodeKey } from "../domain/secretBox.ts";
import { EnvError } from "../internal/env.ts";
import type { Logger } from "../internal/logger.ts";
import { devSecretFile, type SecretSource } from "./devSecretFile.ts";

/**
 * The key webhook secrets are sealed under at rest: WEBHOOK_SECRET_KEY when set. On the local
 * simulated chain only, one is generated once into `<DATA_DIR>/webhook-secret-key.txt`
 * (mode 0600), like the development seed. Against a real chain Remit refuses to start
 * without one: a key that lives next to the database protects nothing.
 */
export async function resolveWebhookSecretKey(source: SecretSource, log: Logger): Promise<string> {
  if (source.configured) return source.configured.trim();
  if (!source.localChain) {
    throw new EnvError(
      "WEBHOOK_SECRET_KEY is required with BASE_RPC_URL: webhook secrets are encrypted under it (openssl rand -hex 32)",
    );
  }
  return devSecretFile(source.dataDir, "webhook-secret-key.txt", {
    create: () => randomBytes(32).toString("hex"),
    isValid: (text) => {
      try {
        return decodeKey(text).length === 32;
      } catch {
        return false;
      }
    },
    what: "a 32-byte key (64 hex digits)",
    warning: (file) =>
      `generated a DEVELOPMENT webhook secret key in ${file}. ` +
      "Set WEBHOOK_SECRET_KEY (and keep it apart from database backups) in production.",
    log,
  });
}
