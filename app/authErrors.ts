import { Refusal } from "./refusal.ts";

/** 401: no key where one is needed. The response carries `WWW-Authenticate: Bearer` (api/errors.ts). */
export const authenticationRequired = (why: string) =>
  new Refusal(
    "unauthenticated",
    "authentication_required",
    `${why}: send one of the merchant's API keys as "Authorization: Bearer <key>"`,
  );

/** 401: a key was sent but is not one (malformed, unknown or revoked: never said which). */
export const invalidApiKey = () =>
  new Refusal(
    "unauthenticated",
    "invalid_api_key",
    "the API key is not valid (unknown, malformed or revoked)",
  );

/** 403: the key is valid but may not do this. */
export const insufficientScope = () =>
  new Refusal(
    "forbidden",
    "insufficient_scope",
    "this API key is read-only: it can list and read, not create, send or change anything",
  );

/** 403: the body names another merchant than the key's. */
export const merchantMismatch = () =>
  new Refusal(
    "forbidden",
    "merchant_mismatch",
    "merchant_email is not the email of this API key's merchant",
    [{ path: "merchant_email", code: "merchant_mismatch", message: "must be the key's merchant" }],
  );

/** 403: the caller's role (its member's, or its key's) does not allow this route. */
export const insufficientRole = (roles: readonly string[]) =>
  new Refusal(
    "forbidden",
    "insufficient_role",
    `your role may not do this: only ${roles.join(", ")} may (docs/members.md)`,
  );

/** 403: a role was asked for that may do more than the caller may. */
export const roleAboveYours = (role: string) =>
  new Refusal(
    "forbidden",
    "role_above_yours",
    `you may not give the role ${role}: it may do what your role may not`,
    [{ path: "role", code: "role_above_yours", message: "may do more than your own role" }],
  );
