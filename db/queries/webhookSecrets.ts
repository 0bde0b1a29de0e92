import { type Kysely, sql } from "kysely";
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

/** Every column holding a webhook signing secret, sealed (null where a row has none). */
const SEALED_SECRET_COLUMNS = [
  { table: "app.invoices", column: "webhook_secret" },
  { table: "app.payment_links", column: "webhook_secret" },
  { table: "app.webhook_endpoints", column: "secret" },
  { table: "app.webhook_endpoints", column: "previous_secret" },
] as const;

/**
 * Re-seals every stored webhook secret that is not sealed under the current key: those written
 * in plain text before migration 0008, and those sealed under a previous key (a rotation), in
 * the invoices, the payment links and the merchants' webhook endpoints (their current secret and
 * the one still signing after a rotation of theirs).
 * Each row is rewritten in its own short statement, so a large table is never locked at once;
 * a crash halfway is finished by the next start. Returns how many rows were rewritten.
 */
export async function resealWebhookSecrets(
  db: Kysely<Database>,
  keyring: Keyring,
): Promise<number> {
  let rewritten = 0;
  for (const { table, column } of SEALED_SECRET_COLUMNS) {
    // Rows already sealed under the current key are the norm: Postgres skips them.
    const { rows } = await sql<{ id: string; stored: string }>`
      select id, ${sql.ref(column)} as stored from ${sql.table(table)}
       where ${sql.ref(column)} not like ${`enc:v1:${keyId(keyring.current)}:%`}`.execute(db);
    for (const row of rows) {
      const plain = PLAIN.test(row.stored) ? row.stored : openSecret(row.stored, keyring);
      await sql`
        update ${sql.table(table)} set ${sql.ref(column)} = ${sealSecret(plain, keyring)}
         where id = ${row.id} and ${sql.ref(column)} = ${row.stored}`.execute(db);
      rewritten++;
    }
  }
  return rewritten;
}
