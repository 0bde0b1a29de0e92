/**
 * The HTTP status each kind of the application's refusal is answered with (the kinds of
 * app/refusal.ts RefusalKind): the one translation the JSON API (api/errors.ts) and the
 * dashboard's pages (web/dashboard/refusals.ts) both read, so a page and a route refuse alike.
 * Each reader checks it covers every kind (`satisfies Record<RefusalKind, …>`), so a new kind
 * fails to compile until it has a status here.
 */
export const REFUSAL_HTTP_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
