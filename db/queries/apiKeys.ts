import { sql } from "kysely";
import type { ApiKeyScope } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";
import { merchantsOwnRow } from "./merchantsOwnRow.ts";

/** A live key with its merchant, as a request is authenticated with it. */
export type KeyIdentity = {
  keyId: string;
  scope: ApiKeyScope;
  merchantId: string;
  merchantEmail: string;
  lastUsedAt: Date | null;
};

/**
 * The unrevoked key whose hash is `keyHash`, with its merchant; undefined when there is none.
 * Read from the database on every request, so a revocation holds at once on every replica.
 */
export async function findLiveKey(db: Executor, keyHash: string): Promise<KeyIdentity | undefined> {
  const row = await db
    .selectFrom("app.api_keys as k")
    .innerJoin("app.merchants as m", "m.id", "k.merchant_id")
    .select(["k.id", "k.scope", "k.last_used_at", "m.id as merchant_id", "m.email"])
    .where("k.key_hash", "=", keyHash)
    .where("k.revoked_at", "is", null)
    .executeTakeFirst();
  return (
    row && {
      keyId: row.id,
      scope: row.scope,
      merchantId: row.merchant_id,
      merchantEmail: row.email,
      lastUsedAt: row.last_used_at,
    }
  );
}

/** Records a use of the key; a no-op when another request did within the last minute. */
export async function touchKey(db: Executor, keyId: string): Promise<void> {
  await db
    .updateTable("app.api_keys")
    .set({ last_used_at: sql<Date>`now()` })
    .where("id", "=", keyId)
    .where((eb) =>
      eb.or([
        eb("last_used_at", "is", null),
        eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`),
      ]),
    )
    .execute();
}

export type ApiKeyRow = {
  id: string;
  name: string;
  scope: ApiKeyScope;
  last_four: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

const listed = [
  "id",
  "name",
  "scope",
  "last_four",
  "created_at",
  "last_used_at",
  "revoked_at",
] as const;

/** Stores a new key's hash (never the key) for a merchant. */
export async function insertApiKey(
  db: Executor,
  key: { merchantId: string; keyHash: string; lastFour: string; name: string; scope: ApiKeyScope },
): Promise<ApiKeyRow> {
  return db
    .insertInto("app.api_keys")
    .values({
      merchant_id: key.merchantId,
      key_hash: key.keyHash,
      last_four: key.lastFour,
      name: key.name,
      scope: key.scope,
      last_used_at: null,
      revoked_at: null,
    })
    .returning(listed)
    .executeTakeFirstOrThrow();
}

/** Every key of the merchant, revoked ones included, oldest first. */
export async function listApiKeys(db: Executor, merchantId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom("app.api_keys")
    .select(listed)
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/**
 * Revokes the merchant's key `id` (at once: every request looks keys up). Undefined when the
 * merchant has no such key; an already revoked key keeps its first revocation time.
 */
export async function revokeApiKey(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable("app.api_keys")
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .$call(merchantsOwnRow(merchantId, id))
    .returning(listed)
    .executeTakeFirst();
}

/** The key `id`'s name and last four characters (for an email naming the key that acted). */
export async function findApiKeyLabel(
  db: Executor,
  id: string,
): Promise<{ name: string; last_four: string } | undefined> {
  return db
    .selectFrom("app.api_keys")
    .select(["name", "last_four"])
    .where("id", "=", id)
    .executeTakeFirst();
}
