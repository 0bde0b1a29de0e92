import { sql } from "kysely";
import type { Executor } from "../database.ts";
import { queuedEmail } from "./emails.ts";

/**
 * How many of the endpoint's latest attempts, newest first, failed in a row (no 2xx), looking at
 * the last `window` at most: a receiver that keeps timing out reaches `window`.
 */
export async function consecutiveEndpointFailures(
  db: Executor,
  endpointId: string,
  window: number,
): Promise<number> {
  const { rows } = await sql<{ ok: boolean }>`
    select coalesce(a.status_code between 200 and 299, false) as ok
      from app.webhook_attempts a
      join app.webhook_deliveries d on d.id = a.delivery_id
     where d.endpoint_id = ${endpointId}
     order by a.attempted_at desc, a.id desc
     limit ${window}`.execute(db);
  const firstOk = rows.findIndex((row) => row.ok);
  return firstOk === -1 ? rows.length : firstOk;
}

/**
 * Disables an enabled endpoint and queues the email telling its merchant why, in one
 * statement pair of the caller's transaction; null when it was disabled (or deleted) already,
 * so a second worker reaching the same count sends nothing twice.
 */
export async function disableFailingEndpoint(
  trx: Executor,
  endpointId: string,
  failures: number,
): Promise<{ merchantId: string; url: string } | null> {
  const row = await trx
    .updateTable("app.webhook_endpoints")
    .set({ enabled: false, updated_at: sql`now()` })
    .where("id", "=", endpointId)
    .where("enabled", "=", true)
    .where("deleted_at", "is", null)
    .returning(["merchant_id", "url"])
    .executeTakeFirst();
  if (!row) return null;
  const merchant = await trx
    .selectFrom("app.merchants")
    .select("email")
    .where("id", "=", row.merchant_id)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("app.emails")
    .values({
      ...queuedEmail({
        kind: "webhook_endpoint_disabled",
        invoiceId: null,
        recipient: merchant.email,
      }),
      details: JSON.stringify({ url: row.url, failures: String(failures) }),
    })
    .execute();
  return { merchantId: row.merchant_id, url: row.url };
}
