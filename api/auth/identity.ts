import type { Context } from "hono";
import type { Actor, Identity } from "../../app/actor.ts";
import type { AppEnv } from "../appEnv.ts";

// The caller's types are the application's (app/actor.ts); this file reads them off a request.
export {
  type Actor,
  type AuthMode,
  type AuthSettings,
  auditActor,
  type Identity,
  isMerchant,
  type KeyIdentity,
  type MerchantActor,
  type MerchantIdentity,
  OPEN_AUTH,
  type SignupMode,
} from "../../app/actor.ts";

const ANONYMOUS: Identity = { kind: "anonymous" };

/** The caller of this request (anonymous outside /api, where nothing authenticates). */
export const identityOf = (c: Context<AppEnv>): Identity => c.get("identity") ?? ANONYMOUS;

export const actorOf = (c: Context<AppEnv>): Actor => ({
  identity: identityOf(c),
  requestId: c.get("requestId") ?? null,
});
