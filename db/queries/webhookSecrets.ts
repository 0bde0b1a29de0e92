import type { Kysely } from "kysely";
import { type Keyring, keyId, openSecret, sealSecret } from "../../domain/secretBox.ts";
import type { Database, Executor } from "../database.ts";

const PLAIN = /^whsec_/;

/** The sealed webhook secret of the invoice or payment link `id`, or null when it has none. */
export async function findSealedWebhookSecret(
  db: Executor,
  table: "app.invoices" | "app.payment_links",
  id: string,
): Promise<string | null> {
  const row = await db
    .selectFrom(table)
    .select("webhook_secret")
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.webhook_secret ?? null;
}

/**
 * Re-seals every stored webhook secret that is not sealed under the current key: those written
 * in plain text before migration 0008, and those sealed under a previous key (a rotation).
 * Each row is rewritten in its own short statement, so a large table is never locked at once;
 * a crash halfway is finished by the next start. Returns how many rows were rewritten.
 */
export async function resealWebhookSecrets(
  db: Kysely<Database>,
  keyring: Keyring,
): Promise<number> {
  let rewritten = 0;
  for (const table of ["app.invoices", "app.payment_links"] as const) {
    const rows = await db
      .selectFrom(table)
      .select(["id", "webhook_secret"])
      // Rows already sealed under the current key are the norm: Postgres skips them.
      .where("webhook_secret", "not like", `enc:v1:${keyId(keyring.current)}:%`)
      .execute();
    for (const row of rows) {
      const stored = row.webhook_secret as string;
      const plain = PLAIN.test(stored) ? stored : openSecret(stored, keyring);
      await db
        .updateTable(table)
        .set({ webhook_secret: sealSecret(plain, keyring) })
        .where("id", "=", row.id)
        .where("webhook_secret", "=", stored)
        .execute();
      rewritten++;
    }
  }
  return rewritten;
}
