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
