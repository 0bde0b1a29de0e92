import type { Transaction } from "kysely";
import type { Database, Executor } from "../db/database.ts";
import {
  claimIdempotencyKey,
  findIdempotentAnswer,
  type IdempotencyScope,
  saveIdempotentResponse,
} from "../db/queries/idempotency.ts";
import { requestHash } from "../domain/requestHash.ts";
import { Refusal } from "./refusal.ts";

/**
 * An action's `Idempotency-Key` and what it was asked with: the same key must come with the
 * same request (its target included: a key used to refund one invoice cannot refund another).
 */
export type IdempotentRequest = { key: string; request: unknown };

/** A key claimed for this transaction: remember the answer with {@link rememberAnswer}. */
export type ClaimedKey = { scope: IdempotencyScope };

/**
 * Claims `idempotency.key` for the merchant's `operation` inside the action's own transaction,
 * before it takes any other lock, so concurrent requests with one key wait for the first to
 * commit (or roll back and free the key) and every money action locks in one order. Returns the
 * answer stored by the first request (`replay`), or the claim to store this one's under; with
 * no key, neither. The same key with another request is a 409 `idempotency_key_reused`. Keys
 * are the merchant's own and live 24 hours (db/queries/idempotency.ts), like the creation
 * routes' (app/createIdempotently.ts).
 */
export async function claimOrReplay<Stored>(
  trx: Transaction<Database>,
  merchantId: string,
  operation: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ replay: Stored } | { claimed: ClaimedKey | null }> {
  if (!idempotency) return { claimed: null };
  const scope = { merchantId, operation, key: idempotency.key };
  const previous = await claimIdempotencyKey(trx, scope, requestHash(idempotency.request));
  if (previous === "conflict")
    throw new Refusal(
      "conflict",
      "idempotency_key_reused",
      "this Idempotency-Key was used with a different request",
    );
  // What rememberAnswer stored under a key of this operation.
  if (previous) return { replay: previous as Stored };
  return { claimed: { scope } };
}

/** Stores what a replay of the claimed key is answered (nothing without a key). */
export async function rememberAnswer(
  trx: Transaction<Database>,
  claimed: ClaimedKey | null,
  stored: unknown,
): Promise<void> {
  if (claimed) await saveIdempotentResponse(trx, claimed.scope, 200, stored);
}

/** What a committed request under the merchant's key was answered, for a page that shows it again. */
export async function rememberedAnswer<Stored>(
  db: Executor,
  merchantId: string,
  operation: string,
  key: string,
): Promise<Stored | undefined> {
  // What rememberAnswer stored under a key of this operation.
  return (await findIdempotentAnswer(db, { merchantId, operation, key })) as Stored | undefined;
}
