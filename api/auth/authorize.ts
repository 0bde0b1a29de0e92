import type { Context } from "hono";
import { authenticationRequired } from "../../app/authErrors.ts";
import type { AppEnv } from "../appEnv.ts";
import { identityOf, type KeyIdentity } from "./identity.ts";

/** The caller's key, on routes that exist only for a merchant with one (keys, wallets, audit). */
export function requireKey(c: Context<AppEnv>): KeyIdentity {
  const identity = identityOf(c);
  if (identity.kind !== "key")
    throw authenticationRequired("this route acts on a merchant account");
  return identity;
}
