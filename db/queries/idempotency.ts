import type { Transaction } from "kysely";
import type { Database } from "../database.ts";

/**
 * Claims `key` for this request inside the caller's transaction. A concurrent request with the
 * same key waits on the row until the first commits (or rolls back, freeing the key). Returns
 * null when claimed, the stored response body for a replay of the same request, or "conflict"
 * when the key was used with a different body.
 */
export async function claimIdempotencyKey(
  trx: Transaction<Database>,
  operation: string,
  key: string,
  requestHash: string,
): Promise<unknown | "conflict" | null> {
  const claimed = await trx
    .insertInto("app.idempotency_keys")
    .values({
      operation,
      key,
      request_hash: requestHash,
      response_status: 0,
      response_body: JSON.stringify({}),
    })
    .onConflict((oc) => oc.columns(["operation", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  if (claimed) return null;
  const existing = await trx
    .selectFrom("app.idempotency_keys")
    .select(["request_hash", "response_body"])
    .where("operation", "=", operation)
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
  return existing.request_hash === requestHash ? JSON.parse(existing.response_body) : "conflict";
}

/** Stores the response a later replay of the same key gets. */
export async function saveIdempotentResponse(
  trx: Transaction<Database>,
  operation: string,
  key: string,
  status: number,
  body: unknown,
  created: { invoiceId: string } | { linkId: string },
): Promise<void> {
  await trx
    .updateTable("app.idempotency_keys")
    .set({
      response_status: status,
      response_body: JSON.stringify(body),
      invoice_id: "invoiceId" in created ? created.invoiceId : null,
      link_id: "linkId" in created ? created.linkId : null,
    })
    .where("operation", "=", operation)
    .where("key", "=", key)
    .execute();
}
