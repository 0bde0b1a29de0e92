import type { Executor } from "../../db/database.ts";
import { findLiveKey, touchKey } from "../../db/queries/apiKeys.ts";
import { hashSecretToken, isWellFormedApiKey } from "../../domain/apiKeys.ts";
import type { KeyIdentity } from "../actor.ts";
import { invalidApiKey } from "../authErrors.ts";

/** A key's last use is written at most this often (a write per request would cost more than the lookup). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Who an API key is, read from the database each time by its hash: a revoked key fails on its
 * next use, on every replica (no cache to invalidate). A token that is not a live key of ours
 * (malformed, unknown, revoked): 401 `invalid_api_key`.
 */
export async function keyIdentity(deps: { db: Executor }, token: string): Promise<KeyIdentity> {
  // The checksum turns away noise (and guesses) without a database round trip.
  if (!isWellFormedApiKey(token)) throw invalidApiKey();
  const key = await findLiveKey(deps.db, hashSecretToken(token));
  if (!key) throw invalidApiKey();
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
    await touchKey(deps.db, key.keyId);
  return {
    kind: "key",
    keyId: key.keyId,
    scope: key.scope,
    merchantId: key.merchantId,
    merchantEmail: key.merchantEmail,
    role: key.role,
    memberId: key.memberId,
    memberRole: key.memberRole,
  };
}
