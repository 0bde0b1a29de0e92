import type { Insertable } from "kysely";
import type { Database, Executor } from "../database.ts";

/** Records one attempt to deliver a webhook (what GET /api/invoices/{id}/webhooks lists). */
export async function insertWebhookAttempt(
  db: Executor,
  attempt: Insertable<Database["app.webhook_attempts"]>,
): Promise<void> {
  await db.insertInto("app.webhook_attempts").values(attempt).execute();
}
