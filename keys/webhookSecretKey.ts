import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { decodeKey } from "../domain/secretBox.ts";
import type { Env } from "../platform/env.ts";
import { EnvError } from "../platform/env.ts";
import type { Logger } from "../platform/logger.ts";

/**
 * The key webhook secrets are sealed under at rest: WEBHOOK_SECRET_KEY when set. On the local
 * simulated chain only, one is generated once into `<DATA_DIR>/webhook-secret-key.txt`
 * (mode 0600), like the development seed. Against a real chain Remit refuses to start
 * without one: a key that lives next to the database protects nothing.
 */
export async function resolveWebhookSecretKey(env: Env, log: Logger): Promise<string> {
  if (env.WEBHOOK_SECRET_KEY) return env.WEBHOOK_SECRET_KEY.trim();
  if (!env.localChain) {
    throw new EnvError(
      "WEBHOOK_SECRET_KEY is required with BASE_RPC_URL: webhook secrets are encrypted under it (openssl rand -hex 32)",
    );
  }
  const file = path.join(env.DATA_DIR, "webhook-secret-key.txt");
  const existing = await readFile(file, "utf8").catch(() => null);
  if (existing !== null) {
    try {
      decodeKey(existing);
    } catch {
      throw new EnvError(`${file} does not hold a 32-byte key (64 hex digits)`);
    }
    return existing.trim();
  }
  const key = randomBytes(32).toString("hex");
  await mkdir(env.DATA_DIR, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  log.warn(
    `generated a DEVELOPMENT webhook secret key in ${file}. ` +
      "Set WEBHOOK_SECRET_KEY (and keep it apart from database backups) in production.",
  );
  return key;
}
