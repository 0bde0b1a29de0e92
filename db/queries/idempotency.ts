import { sql, type Transaction } from "kysely";
import type { Database, Executor } from "../database.ts";

/** How long a key is remembered (Stripe's 24 hours): after that it may be used afresh. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** Whose key it is and for what: keys of different merchants or operations never meet. */
export type IdempotencyScope = { merchantId: string; operation: string; key: string };

/**
 * Claims the merchant's `key` for this request inside the caller's transaction. A concurrent
 * request with the same key waits on the row until the first commits (or rolls back, freeing
 * the key); a key older than 24 hours is claimed afresh. Returns null when claimed, the stored
 * response body for a replay of the same request, or "conflict" when the key was used with a
 * different body.
 */
export async function claimIdempotencyKey(
  trx: Transaction<Database>,
  scope: IdempotencyScope,
  requestHash: string,
): Promise<unknown | "conflict" | null> {
  const expired = sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})`;
  const claimed = await trx
    .insertInto("app.idempotency_keys")
    .values({
      merchant_id: scope.merchantId,
      operation: scope.operation,
      key: scope.key,
      request_hash: requestHash,
      response_status: 0,
      response_body: JSON.stringify({}),
      invoice_id: null,
    })
    .onConflict((oc) =>
      oc
        .columns(["merchant_id", "operation", "key"])
        .doUpdateSet({
          request_hash: requestHash,
          response_status: 0,
          response_body: JSON.stringify({}),
          invoice_id: null,
          link_id: null,
          created_at: sql<Date>`now()`,
        })
        .where("app.idempotency_keys.created_at", "<", expired),
    )
    .returning("key")
    .executeTakeFirst();
  if (claimed) return null;
  const existing = await trx
    .selectFrom("app.idempotency_keys")
    .select(["request_hash", "response_body"])
    .where("merchant_id", "=", scope.merchantId)
    .where("operation", "=", scope.operation)
    .where("key", "=", scope.key)
    .executeTakeFirstOrThrow();
  return existing.request_hash === requestHash ? JSON.parse(existing.response_body) : "conflict";
}

/** Stores the response a later replay of the same key gets (and what it created, if a record). */
export async function saveIdempotentResponse(
  trx: Transaction<Database>,
  scope: IdempotencyScope,
  status: number,
  body: unknown,
  created?: { invoiceId: string } | { linkId: string },
): Promise<void> {
  await trx
    .updateTable("app.idempotency_keys")
    .set({
      response_status: status,
      response_body: JSON.stringify(body),
      invoice_id: created && "invoiceId" in created ? created.invoiceId : null,
      link_id: created && "linkId" in created ? created.linkId : null,
    })
    .where("merchant_id", "=", scope.merchantId)
    .where("operation", "=", scope.operation)
    .where("key", "=", scope.key)
    .execute();
}

/**
 * The answer stored under a merchant's key, once its request committed (a key still being
 * worked on, or unknown, or expired: undefined). Reads only: never claims the key.
 */
export async function findIdempotentAnswer(
  db: Executor,
  scope: IdempotencyScope,
): Promise<unknown | undefined> {
  const expired = sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})`;
  const row = await db
    .selectFrom("app.idempotency_keys")
    .select("response_body")
    .where("merchant_id", "=", scope.merchantId)
    .where("operation", "=", scope.operation)
    .where("key", "=", scope.key)
    .where("response_status", "<>", 0)
    .where("created_at", ">=", expired)
    .executeTakeFirst();
  return row ? JSON.parse(row.response_body) : undefined;
}
