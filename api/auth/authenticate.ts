import type { Context, MiddlewareHandler, Next } from "hono";
import type { Db } from "../../db/database.ts";
import { findLiveKey, touchKey } from "../../db/queries/apiKeys.ts";
import { hashSecretToken, isWellFormedApiKey } from "../../domain/apiKeys.ts";
import type { AppEnv } from "../appEnv.ts";
import { requestHeader } from "../requestHeader.ts";
import { authenticationRequired, insufficientScope, invalidApiKey } from "./authErrors.ts";
import type { AuthSettings, Identity } from "./identity.ts";
import { isPublicRoute, isWriteRequest } from "./publicRoutes.ts";

/** A key's last use is written at most this often (a write per request would cost more than the lookup). */
const TOUCH_INTERVAL_MS = 60_000;

export type AuthenticateOptions = {
  db: Db;
  auth: AuthSettings;
};

/**
 * Resolves `Authorization: Bearer <key>` on every /api request by the key's hash, read from
 * the database each time: a revoked key fails on its next request, on every replica (no cache
 * to invalidate). Sets the request's identity, then refuses, in the usual error shape:
 * - a header that is not a live key of ours: 401 `invalid_api_key` (in every mode; a key that
 *   fails is never taken for no key);
 * - no key, in `keys` mode, on a route that is not public: 401 `authentication_required`;
 * - a `read` key on a write (isWriteRequest): 403 `insufficient_scope`.
 * What a key may see (its own merchant's records) is each route's business (api/auth/authorize.ts).
 */
export function authenticate(options: AuthenticateOptions): MiddlewareHandler<AppEnv> {
  const admit = (c: Context<AppEnv>, next: Next, identity: Identity) => {
    c.set("identity", identity);
    if (identity.kind === "anonymous") {
      if (options.auth.mode === "keys" && !isPublicRoute(c.req.method, c.req.path))
        throw authenticationRequired("this Remit requires an API key (AUTH_MODE=keys)");
      return next();
    }
    if (
      identity.kind === "key" &&
      identity.scope === "read" &&
      isWriteRequest(c.req.method) &&
      !isPublicRoute(c.req.method, c.req.path)
    )
      throw insufficientScope();
    return next();
  };
  return (c, next) => {
    const header = requestHeader(c, "authorization");
    // No key (every status poll): decided without a promise or a database round trip.
    if (header === undefined) return admit(c, next, ANONYMOUS);
    return resolveIdentity(options.db, header).then((identity) => admit(c, next, identity));
  };
}

const ANONYMOUS: Identity = { kind: "anonymous" };

/** The identity a request's Authorization header carries; throws 401 for a bad one. */
async function resolveIdentity(db: Db, header: string): Promise<Identity> {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const token = match?.[1];
  // The checksum turns away noise (and guesses) without a database round trip.
  if (!token || !isWellFormedApiKey(token)) throw invalidApiKey();
  const key = await findLiveKey(db, hashSecretToken(token));
  if (!key) throw invalidApiKey();
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
    await touchKey(db, key.keyId);
  return {
    kind: "key",
    keyId: key.keyId,
    scope: key.scope,
    merchantId: key.merchantId,
    merchantEmail: key.merchantEmail,
  };
}
