/**
 * The /api routes anyone may call in every AUTH_MODE, and why (docs/api.md, "Who may call
 * what"): the two status endpoints (spec §5: no authentication; hosted pages poll them), the
 * vendor's PDF by the invoice's public slug (a vendor has no key), the claim request (how a
 * merchant gets its first key), a payer's gasless authorizations by slug (issue 18: a payer
 * has no key either), and a payer's transaction lookup (issue 17). Every other /api route needs a key in `keys` mode.
 */
const PUBLIC_ROUTES: readonly { method: string; pattern: RegExp }[] = [
  { method: "GET", pattern: /^\/api\/payments\/status\/[^/]+$/ },
  { method: "GET", pattern: /^\/api\/invoices\/[^/]+\/status$/ },
  { method: "GET", pattern: /^\/api\/invoices\/by-slug\/[^/]+\/pdf$/ },
  { method: "POST", pattern: /^\/api\/merchants\/claim$/ },
  { method: "POST", pattern: /^\/api\/payments\/[^/]+\/authorizations$/ },
  { method: "GET", pattern: /^\/api\/payments\/[^/]+\/authorizations\/[^/]+$/ },
  // "I paid — where is it?" (issue 17): asked by payers, who have no key; reveals no merchant.
  { method: "GET", pattern: /^\/api\/transactions\/[^/]+$/ },
];

export const isPublicRoute = (method: string, path: string): boolean => {
  const verb = method === "HEAD" ? "GET" : method;
  return PUBLIC_ROUTES.some((route) => route.method === verb && route.pattern.test(path));
};

/**
 * Whether the request changes something, and so needs a `write` key. The one place a route
 * is judged a write: every method but GET and HEAD, so a future route (void, refund) is
 * covered by being a POST.
 */
export const isWriteRequest = (method: string): boolean => method !== "GET" && method !== "HEAD";
