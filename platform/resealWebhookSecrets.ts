import { createDb } from "../db/database.ts";
import { resealWebhookSecrets } from "../db/queries/webhookSecrets.ts";
import { parseKeyring } from "../domain/secretBox.ts";
import type { Env } from "../internal/env.ts";
import type { Logger } from "../internal/logger.ts";

/**
 * Before any child starts: every stored webhook secret sealed under the current key (plain
 * ones from before migration 0008, and those under a previous key after a rotation).
 */
export async function resealStoredWebhookSecrets(
  databaseUrl: string,
  key: string,
  env: Pick<Env, "WEBHOOK_SECRET_KEY_PREVIOUS">,
  log: Logger,
): Promise<void> {
  const db = createDb(databaseUrl, { max: 1 });
  try {
    const count = await resealWebhookSecrets(
      db,
      parseKeyring(key, env.WEBHOOK_SECRET_KEY_PREVIOUS),
    );
    if (count) log.info("webhook secrets sealed under the current key", { rows: count });
  } finally {
    await db.destroy();
  }
}
