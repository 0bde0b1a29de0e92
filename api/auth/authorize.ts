import type { Context } from "hono";
import { authenticationRequired } from "../../app/authErrors.ts";
import type { AppEnv } from "../appEnv.ts";
import { actorOf, identityOf, type KeyIdentity, type MerchantActor } from "./identity.ts";

/** The caller's key, on routes that exist only for a merchant with one (keys, wallets, audit). */
export function requireKey(c: Context<AppEnv>): KeyIdentity {
  const identity = identityOf(c);
  if (identity.kind !== "key")
    throw authenticationRequired("this route acts on a merchant account");
  return identity;
}

/** The caller as the use cases take it: a merchant with its key (401 without, as requireKey). */
export const merchantActorOf = (c: Context<AppEnv>): MerchantActor => ({
  ...actorOf(c),
  identity: requireKey(c),
});
