/**
 * Who may call what: the one declaration of Remit's authorization policy, for every JSON API
 * route and every dashboard route. `api/auth/enforcePolicy.ts` enforces the API's rows on every
 * /api request, the dashboard's session middleware its rows, the app refuses to start with a
 * route that has no row (server/app.ts), `test/security/authorizationMatrix.test.ts` checks
 * every row against the running service, and docs/api.md's "Who may call what" table is
 * rendered from it (`policyTableMarkdown`).
 *
 * The rule behind every row: a public identifier (a slug, a deposit address, an invoice number,
 * a transaction hash) authorises nothing but reading the public status and pages; money never
 * moves on one, in any mode.
 */

/** A key's scope: `read` keys list and read; only `write` keys create, send or change. */
export type Scope = "read" | "write";

/**
 * Who may call a route:
 * - `anyone`: no credential, in every AUTH_MODE (payers and vendors have none);
 * - `creator`: in `open` mode anyone, for a merchant_email without an account; otherwise the
 *   merchant's own key (the spec's open creation);
 * - `invoice_holder`: in `open` mode whoever holds the `invoice_id` (returned only to its
 *   creator, never shown on a page) of a merchant without an account; otherwise the owner's
 *   key or dashboard session;
 * - `owner`: the owner's key (or dashboard session), in every mode; never anonymous.
 */
export type Access = "anyone" | "creator" | "invoice_holder" | "owner";

export type RoutePolicy = {
  access: Access;
  /** What a key must allow (ignored for `anyone`). */
  scope: Scope;
  /** Why, in a few words: shown in docs/api.md. */
  why: string;
};

/** A route as OpenAPI writes it: `"POST /api/invoices/{id}/refunds"`. */
export type RouteKey = `${"GET" | "POST" | "PATCH" | "DELETE"} /${string}`;

const anyone = (why: string): RoutePolicy => ({ access: "anyone", scope: "read", why });
const owner = (scope: Scope, why: string): RoutePolicy => ({ access: "owner", scope, why });
const holder = (scope: Scope, why: string): RoutePolicy => ({
  access: "invoice_holder",
  scope,
  why,
});

/** The JSON API: every operation of /openapi.json has exactly one row. */
export const API_POLICY: Readonly<Record<RouteKey, RoutePolicy>> = {
  "GET /api/invoices/{id}/status": anyone("the spec: no authentication; pages poll it"),
  "GET /api/payments/status/{slug}": anyone("the spec: no authentication; pages poll it"),
  "GET /api/invoices/by-slug/{slug}/pdf": anyone("the vendor's PDF, linked from its page"),
  "POST /api/merchants/claim": anyone("how a merchant gets its first key; reveals nothing"),
  "POST /api/payments/{slug}/authorizations": anyone("a payer's gasless payment: pays in"),
  "GET /api/payments/{slug}/authorizations/{id}": anyone("a payer's gasless payment's state"),
  "GET /api/x402/{slug}": anyone("a payer's software paying over x402: pays in"),
  "GET /api/transactions/{tx_hash}": anyone("a payer's lookup; reveals no merchant"),
  "POST /api/invoices": { access: "creator", scope: "write", why: "the spec's open creation" },
  "POST /api/links": { access: "creator", scope: "write", why: "the spec's open creation" },
  "GET /api/invoices/{id}": holder("read", "the invoice_id is its creator's secret"),
  "GET /api/invoices/{id}/pdf": holder("read", "the invoice_id is its creator's secret"),
  "GET /api/invoices/{id}/einvoice": holder("read", "the invoice_id is its creator's secret"),
  "GET /api/invoices/{id}/webhooks": holder("read", "the invoice_id is its creator's secret"),
  "POST /api/invoices/{id}/send": holder("write", "the invoice_id is its creator's secret"),
  "POST /api/invoices/{id}/webhooks/{event_id}/redeliver": holder(
    "write",
    "the invoice_id is its creator's secret",
  ),
  "POST /api/invoices/{id}/void": holder("write", "the invoice_id is its creator's secret"),
  "POST /api/invoices/{id}/refunds": holder("write", "moves money: the invoice_id, never a slug"),
  "POST /api/invoices/{id}/credit-notes": holder("write", "lowers what the invoice asks for"),
  "GET /api/credit-notes/{id}": holder("read", "as its invoice: the id is its creator's secret"),
  "GET /api/credit-notes/{id}/pdf": holder("read", "as its invoice's PDF"),
  "GET /api/credit-notes/{id}/einvoice": holder("read", "as its invoice's e-invoice"),
  "GET /api/credit-notes": owner("read", "the merchant's documents"),
  "GET /api/links/{slug}": owner("read", "a slug is public: internals only to the owner"),
  "POST /api/links/{slug}/refunds": owner("write", "moves money: a slug is public"),
  "GET /api/invoices": owner("read", "a list needs a merchant to be scoped to"),
  "GET /api/links": owner("read", "a list needs a merchant to be scoped to"),
  "GET /api/payments": owner("read", "a list needs a merchant to be scoped to"),
  "GET /api/exports/invoices.csv": owner("read", "a list needs a merchant to be scoped to"),
  "GET /api/exports/payments.csv": owner("read", "a list needs a merchant to be scoped to"),
  "GET /api/keys": owner("read", "the account"),
  "POST /api/keys": owner("write", "the account"),
  "DELETE /api/keys/{id}": owner("write", "the account"),
  "GET /api/merchant/wallets": owner("read", "the account"),
  "POST /api/merchant/wallets": owner("write", "where money goes; the merchant is emailed"),
  "DELETE /api/merchant/wallets/{address}": owner("write", "the account"),
  "GET /api/merchant/payouts": owner("read", "the account"),
  "POST /api/merchant/payouts": owner("write", "moves money: to the merchant's own wallets only"),
  "GET /api/merchant/settings": owner("read", "the account"),
  "PATCH /api/merchant/settings": owner("write", "the account; audited"),
  "GET /api/audit": owner("read", "the account"),
  "GET /api/webhook-endpoints": owner("read", "the account; never a secret"),
  "POST /api/webhook-endpoints": owner("write", "where events go; audited"),
  "GET /api/webhook-endpoints/{id}": owner("read", "the account; never a secret"),
  "PATCH /api/webhook-endpoints/{id}": owner("write", "where events go; audited"),
  "POST /api/webhook-endpoints/{id}/rotate-secret": owner("write", "a new secret; audited"),
  "POST /api/webhook-endpoints/{id}/test": owner("write", "calls out"),
  // Last of the endpoint's rows: the authorization matrix deletes the endpoint the others name.
  "DELETE /api/webhook-endpoints/{id}": owner("write", "stops its deliveries; audited"),
  "GET /api/events": owner("read", "the merchant's event log"),
  "GET /api/events/{id}": owner("read", "an event of the merchant's"),
  "POST /api/invoice-schedules": owner("write", "issues invoices for the merchant; audited"),
  "GET /api/invoice-schedules": owner("read", "a list needs a merchant to be scoped to"),
  "GET /api/invoice-schedules/{id}": owner("read", "a schedule of the merchant's"),
  "PATCH /api/invoice-schedules/{id}": owner("write", "what future invoices bill; audited"),
  "POST /api/invoice-schedules/{id}/pause": owner("write", "audited"),
  "POST /api/invoice-schedules/{id}/resume": owner("write", "audited"),
  "POST /api/invoice-schedules/{id}/run": owner("write", "issues an invoice now"),
  "GET /api/reminder-policy": owner("read", "the account"),
  "PATCH /api/reminder-policy": owner("write", "who is emailed and when; audited"),
  "POST /api/invoices/{id}/remind": owner("write", "emails the vendor; rate-limited"),
  "GET /api/reports/receivables": owner("read", "a report needs a merchant to be scoped to"),
  "GET /api/exports/receivables.csv": owner("read", "a report needs a merchant to be scoped to"),
  // After run: the authorization matrix cancels the schedule the rows above name.
  "POST /api/invoice-schedules/{id}/cancel": owner("write", "audited"),
};

/**
 * The dashboard (`{PAY_URL}/dashboard`): `anyone` for signing in (by a one-time email link)
 * and its assets, `owner` (a signed-in session of the merchant, its CSRF token on every POST)
 * for everything else. A record of another merchant is a 404, like an unknown one.
 */
export const DASHBOARD_POLICY: Readonly<Record<RouteKey, RoutePolicy>> = {
  "GET /dashboard/sign-in": anyone("signing in"),
  "POST /dashboard/sign-in": anyone("asks for a one-time link; one answer whatever happened"),
  "POST /dashboard/claim": anyone(
    "asks for a claim link (as POST /api/merchants/claim); one answer whatever happened",
  ),
  "GET /dashboard/sign-in/{token}": anyone("a one-time link: shows a button, changes nothing"),
  "POST /dashboard/sign-in/{token}": anyone("a one-time link: starts a session"),
  "GET /dashboard/notification-email/{token}": anyone(
    "a one-time link to a new notice address: shows a button, changes nothing",
  ),
  "POST /dashboard/notification-email/{token}": anyone(
    "a one-time link: proves the new notice address is read",
  ),
  "POST /dashboard/sign-out": owner("write", "the session"),
  "GET /dashboard": owner("read", "the overview"),
  "GET /dashboard/invoices": owner("read", "the merchant's invoices"),
  "GET /dashboard/invoices/new": owner("read", "the invoice form"),
  "POST /dashboard/invoices/new": owner("write", "creates an invoice"),
  "GET /dashboard/invoices/{id}": owner("read", "an invoice of the merchant's"),
  "POST /dashboard/invoices/{id}/events/{event}/redeliver": owner("write", "calls out"),
  "POST /dashboard/invoices/{id}/void": owner("write", "voids an invoice"),
  "POST /dashboard/invoices/{id}/refunds": owner("write", "moves money"),
  "POST /dashboard/invoices/{id}/credit-notes": owner(
    "write",
    "issues a credit note: lowers what is owed, emails the vendor",
  ),
  "GET /dashboard/invoices/{id}/einvoice": owner("read", "an invoice of the merchant's"),
  "GET /dashboard/credit-notes/{id}/pdf": owner("read", "a credit note of the merchant's"),
  "GET /dashboard/credit-notes/{id}/einvoice": owner("read", "a credit note of the merchant's"),
  "GET /dashboard/links": owner("read", "the merchant's links"),
  "GET /dashboard/links/new": owner("read", "the link form"),
  "POST /dashboard/links/new": owner("write", "creates a link"),
  "GET /dashboard/links/{slug}": owner("read", "a link of the merchant's"),
  "GET /dashboard/payments": owner("read", "the merchant's payments"),
  "GET /dashboard/keys": owner("read", "the account"),
  "POST /dashboard/keys": owner("write", "the account"),
  "POST /dashboard/keys/{id}/revoke": owner("write", "the account"),
  "GET /dashboard/settings": owner("read", "the account"),
  "POST /dashboard/settings": owner("write", "the account; audited"),
  "POST /dashboard/settings/wallets": owner("write", "where money goes"),
  "POST /dashboard/settings/wallets/remove": owner("write", "the account"),
  "POST /dashboard/settings/payouts": owner(
    "write",
    "moves money: to the merchant's own wallets only",
  ),
  "GET /dashboard/exports/{file}": owner("read", "the merchant's records"),
  "GET /dashboard/webhooks": owner("read", "the merchant's webhook endpoints"),
  "POST /dashboard/webhooks": owner("write", "adds an endpoint: events go out; audited"),
  "GET /dashboard/webhooks/{id}": owner("read", "an endpoint of the merchant's and its deliveries"),
  "POST /dashboard/webhooks/{id}": owner("write", "where events go; audited"),
  "POST /dashboard/webhooks/{id}/test": owner("write", "calls out"),
  "POST /dashboard/webhooks/{id}/rotate-secret": owner("write", "a new signing secret; audited"),
  "POST /dashboard/webhooks/{id}/disable": owner("write", "where events go; audited"),
  "POST /dashboard/webhooks/{id}/enable": owner("write", "where events go; audited"),
  // Last of an endpoint's rows: the authorization matrix calls them in this order.
  "POST /dashboard/webhooks/{id}/delete": owner("write", "where events go; audited"),
  "GET /dashboard/events": owner("read", "the merchant's event log"),
  "GET /dashboard/events/{id}": owner("read", "an event of the merchant's and its deliveries"),
  "GET /dashboard/schedules": owner("read", "the merchant's schedules"),
  "GET /dashboard/schedules/new": owner("read", "the schedule form"),
  "POST /dashboard/schedules/new": owner("write", "issues invoices for the merchant; audited"),
  "GET /dashboard/schedules/{id}": owner("read", "a schedule of the merchant's"),
  "GET /dashboard/schedules/{id}/edit": owner("read", "a schedule of the merchant's, as a form"),
  "POST /dashboard/schedules/{id}/edit": owner("write", "what future invoices bill; audited"),
  "POST /dashboard/schedules/{id}/pause": owner("write", "stops its invoices; audited"),
  "POST /dashboard/schedules/{id}/resume": owner("write", "issues invoices again; audited"),
  "POST /dashboard/schedules/{id}/cancel": owner("write", "ends a schedule; audited"),
  "POST /dashboard/schedules/{id}/run": owner("write", "issues an invoice"),
  "GET /dashboard/receivables": owner("read", "the merchant's receivables"),
  "GET /dashboard/reminders": owner("read", "the account"),
  "POST /dashboard/reminders": owner("write", "emails the merchant's customers; audited"),
};

/** Hono's `/api/invoices/:id` as OpenAPI's `/api/invoices/{id}`. */
export const openApiPath = (honoPath: string): string =>
  honoPath.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "{$1}");

/** The policy of a route by its method and pattern (Hono's or OpenAPI's form); HEAD is GET. */
export function policyOf(
  table: Readonly<Record<RouteKey, RoutePolicy>>,
  method: string,
  pattern: string,
): RoutePolicy | undefined {
  const verb = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return table[`${verb} ${openApiPath(pattern)}` as RouteKey];
}

/** Whether any table declares the route (for the start-up check of server/app.ts). */
export const isDeclared = (method: string, pattern: string): boolean =>
  policyOf(API_POLICY, method, pattern) !== undefined ||
  policyOf(DASHBOARD_POLICY, method, pattern) !== undefined;

const CELLS: Record<Access, { open: string; keys: string; merchant: (s: Scope) => string }> = {
  anyone: { open: "anyone", keys: "anyone", merchant: () => "anyone" },
  creator: {
    open: "anyone, for a merchant_email without an account (a claimed one: 401)",
    keys: "401",
    merchant: () => "its own email only (403); write scope",
  },
  invoice_holder: {
    open: "whoever holds the `invoice_id`, of a merchant without an account (a claimed one's: 401)",
    keys: "401",
    merchant: (s) => `its own only (404)${s === "write" ? "; write scope" : ""}`,
  },
  owner: {
    open: "401",
    keys: "401",
    merchant: (s) => `its own only (404)${s === "write" ? "; write scope" : ""}`,
  },
};

/**
 * docs/api.md's "Who may call what" table for the JSON API, rendered from API_POLICY (routes
 * with the same cells share a row, in the table's order).
 */
export function policyTableMarkdown(): string {
  const rows = new Map<string, { routes: string[]; cells: string[] }>();
  for (const [route, policy] of Object.entries(API_POLICY)) {
    const cell = CELLS[policy.access];
    const cells = [cell.open, cell.keys, cell.merchant(policy.scope), policy.why];
    const key = cells.join("|");
    const row = rows.get(key) ?? { routes: [], cells };
    row.routes.push(`\`${route}\``);
    rows.set(key, row);
  }
  const lines = [
    "| endpoint | `open` mode, no key | `keys` mode, no key | with a merchant's key | why |",
    "| --- | --- | --- | --- | --- |",
    ...[...rows.values()].map((row) => `| ${[row.routes.join(", "), ...row.cells].join(" | ")} |`),
    "| hosted pages (`/i/`, `/pay/`, `/merchant/`, `/w.js`), `/claim/{token}`, `/refund/{token}` | anyone with the slug or token | same | same | what a payer sees; no internals, no money out |",
  ];
  return lines.join("\n");
}
