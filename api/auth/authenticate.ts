import type { Context, MiddlewareHandler, Next } from "hono";
import { matchedRoutes } from "hono/route";
import { authenticationRequired, insufficientScope, invalidApiKey } from "../../app/authErrors.ts";
import { assertRoleAllows } from "../../app/authorize.ts";
import { keyIdentity } from "../../app/keys/keyIdentity.ts";
import type { Db } from "../../db/database.ts";
import { API_POLICY, policyOf, type RoutePolicy, rolesWith } from "../../domain/accessPolicy.ts";
import { requestHeader } from "../../internal/requestHeader.ts";
import type { AppEnv } from "../appEnv.ts";
import { routePattern, UNMATCHED_ROUTE } from "../metrics/routePattern.ts";
import type { AuthSettings, Identity } from "./identity.ts";

export type AuthenticateOptions = {
  db: Db;
  auth: AuthSettings;
};

/**
 * Resolves `Authorization: Bearer <key>` on every /api request (app/keys/keyIdentity.ts: by the
 * key's hash, read from the database each time, so a revoked key fails on its next request).
 * Sets the request's identity, then enforces the route's row of the declared
 * policy (domain/accessPolicy.ts), in the usual error shape:
 * - a header that is not a live key of ours: 401 `invalid_api_key` (in every mode; a key that
 *   fails is never taken for no key);
 * - no key on an `owner` route (every mode), or on any route but an `anyone` one in `keys`
 *   mode: 401 `authentication_required`;
 * - a `read` key on a route that needs `write`: 403 `insufficient_scope`;
 * - a key whose role (or whose maker's role) lacks the route's permission: 403
 *   `insufficient_role` (app/authorize.ts `assertRoleAllows`).
 * Which records a merchant may touch (its own; an unclaimed merchant's invoice by its id in open
 * mode) is decided by the loaders of app/authorize.ts, by the same row's access.
 */
export function authenticate(options: AuthenticateOptions): MiddlewareHandler<AppEnv> {
  const admit = (c: Context<AppEnv>, next: Next, identity: Identity) => {
    c.set("identity", identity);
    const policy = routePolicy(c);
    // No route matched: the app's 404, whoever asks (nothing to authorise).
    if (!policy || policy.access === "anyone") return next();
    if (identity.kind === "anonymous") {
      if (policy.access === "owner")
        throw authenticationRequired("this route acts on a merchant account");
      if (options.auth.mode === "keys")
        throw authenticationRequired("this Remit requires an API key (AUTH_MODE=keys)");
      return next();
    }
    if (identity.kind === "key" && identity.scope === "read" && policy.scope === "write")
      throw insufficientScope();
    assertRoleAllows(identity, policy);
    return next();
  };
  return (c, next) => {
    const header = requestHeader(c, "authorization");
    // No key (every status poll): decided without a promise or a database round trip.
    if (header === undefined) return admit(c, next, ANONYMOUS);
    return resolveIdentity(options.db, header).then((identity) => admit(c, next, identity));
  };
}

/** A route nobody declared is treated as the strictest row (fail closed; server/app.ts refuses to start with one). */
const UNDECLARED: RoutePolicy = {
  access: "owner",
  scope: "write",
  permission: "ownership",
  roles: rolesWith("ownership"),
  why: "undeclared",
};

/** The declared policy of the route this request matched (undefined: none matched). */
function routePolicy(c: Context<AppEnv>): RoutePolicy | undefined {
  const pattern = routePattern(matchedRoutes(c));
  if (pattern === UNMATCHED_ROUTE) return undefined;
  return policyOf(API_POLICY, c.req.method, pattern) ?? UNDECLARED;
}

const ANONYMOUS: Identity = { kind: "anonymous" };

/** The identity a request's Authorization header carries; throws 401 for a bad one. */
async function resolveIdentity(db: Db, header: string): Promise<Identity> {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const token = match?.[1];
  if (!token) throw invalidApiKey();
  return keyIdentity({ db }, token);
}
