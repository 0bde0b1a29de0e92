import { sql } from "kysely";
import type { Role } from "../../domain/accessPolicy.ts";
import type { ApiKeyScope } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";
import { ownerMemberOf } from "./members.ts";
import { merchantsOwnRow } from "./merchantsOwnRow.ts";

/** A live key with its merchant, as a request is authenticated with it. */
export type KeyIdentity = {
  keyId: string;
  scope: ApiKeyScope;
  merchantId: string;
  merchantEmail: string;
  lastUsedAt: Date | null;
  /** The role it is limited to (null: whatever its scope allows). */
  role: Role | null;
  /** The member who made it, and that member's role now. */
  memberId: string;
  memberRole: Role;
};

/**
 * The unrevoked key whose hash is `keyHash`, with its merchant and the member who made it;
 * undefined when there is none, or its member was removed. Read from the database on every
 * request, so a revocation (or the removal of its member) holds at once on every replica.
 */
export async function findLiveKey(db: Executor, keyHash: string): Promise<KeyIdentity | undefined> {
  const row = await db
    .selectFrom("app.api_keys as k")
    .innerJoin("app.merchants as m", "m.id", "k.merchant_id")
    .innerJoin("app.members as t", "t.id", "k.member_id")
    .select([
      "k.id",
      "k.scope",
      "k.role",
      "k.last_used_at",
      "m.id as merchant_id",
      "m.email",
      "t.id as member_id",
      "t.role as member_role",
    ])
    .where("k.key_hash", "=", keyHash)
    .where("k.revoked_at", "is", null)
    .where("t.status", "=", "active")
    .executeTakeFirst();
  return (
    row && {
      keyId: row.id,
      scope: row.scope,
      merchantId: row.merchant_id,
      merchantEmail: row.email,
      lastUsedAt: row.last_used_at,
      role: row.role,
      memberId: row.member_id,
      memberRole: row.member_role,
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
  role: Role | null;
  member_id: string;
  last_four: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

const listed = [
  "id",
  "name",
  "scope",
  "role",
  "member_id",
  "last_four",
  "created_at",
  "last_used_at",
  "revoked_at",
] as const;

/**
 * Stores a new key's hash (never the key) for a merchant, made by `memberId` (default: its
 * owner) and limited to `role` (default none: whatever its scope allows).
 */
export async function insertApiKey(
  db: Executor,
  key: {
    merchantId: string;
    keyHash: string;
    lastFour: string;
    name: string;
    scope: ApiKeyScope;
    role?: Role | null;
    memberId?: string | null;
  },
): Promise<ApiKeyRow> {
  return db
    .insertInto("app.api_keys")
    .values({
      merchant_id: key.merchantId,
      key_hash: key.keyHash,
      last_four: key.lastFour,
      name: key.name,
      scope: key.scope,
      role: key.role ?? null,
      member_id: key.memberId ?? ownerMemberOf(key.merchantId),
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
