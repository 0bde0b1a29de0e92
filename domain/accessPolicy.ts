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

/**
 * A member's role (issue 46, docs/members.md): what a member of a merchant's team may do, and
 * so what its dashboard session and the API keys it makes may do. `owner` first: the roles are
 * listed from the most to the least trusted.
 */
export const ROLES = ["owner", "admin", "developer", "accountant", "support"] as const;
export type Role = (typeof ROLES)[number];

/** What a role may do; every route's row names the one permission it needs. */
export const PERMISSIONS = [
  /** Read invoices, links, payments, credit notes and their documents. */
  "view_payments",
  /** Email an invoice to its vendor again. */
  "resend_invoice",
  /** Read the rest of the account: events, endpoints, keys, settings, audit, schedules, members. */
  "view_account",
  /** The CSV exports and the receivables report. */
  "export",
  /** Issue invoices and links, void, schedules, reminders. */
  "invoicing",
  /** Issue credit notes. */
  "credit_notes",
  /** API keys, webhook endpoints, test events and redeliveries. */
  "developer_tools",
  /** Refunds: money out to a payer. */
  "refunds",
  /** Payout wallets and payouts: where the merchant's money goes. */
  "payouts",
  /** The account's settings and reminder policy. */
  "settings",
  /** Invite, change and remove members (not owners). */
  "members",
  /** Make, demote or remove an owner. */
  "ownership",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYONE: readonly Permission[] = ["view_payments", "resend_invoice"];
const READS: readonly Permission[] = [...EVERYONE, "view_account", "export"];

/** Each role's permissions: the one place they are declared. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((p) => p !== "ownership"),
  developer: [...READS, "invoicing", "developer_tools"],
  accountant: [...READS, "credit_notes"],
  support: EVERYONE,
};

/** What each role may do, in a few words (the API's description of `role`, the dashboard's team page). */
export const ROLE_SUMMARIES: Readonly<Record<Role, string>> = {
  owner: "everything, ownership included",
  admin: "everything but ownership",
  developer: "keys, webhook endpoints, events, issuing; reads everything",
  accountant: "reads, exports, credit notes",
  support: "reads invoices, links and payments; resends an invoice email",
};

/**
 * Whether `role` may do what `permission` allows. `null` is a key made before roles existed
 * (or with none): it may do whatever its scope allows, exactly as before roles.
 */
export const roleAllows = (role: Role | null, permission: Permission): boolean =>
  role === null || ROLE_PERMISSIONS[role].includes(permission);

/** The roles that hold `permission`, in ROLES' order. */
export const rolesWith = (permission: Permission): Role[] =>
  ROLES.filter((role) => roleAllows(role, permission));

/**
 * Whether a member of role `maker` may give `role` to a key or a member: never anything it
 * could not do itself (a developer cannot mint a key that refunds), and `owner` only by an owner.
 */
export const mayGrant = (maker: Role | null, role: Role): boolean =>
  ROLE_PERMISSIONS[role].every((permission) => roleAllows(maker, permission));

export type RoutePolicy = {
  access: Access;
  /** What a key must allow (ignored for `anyone`). */
  scope: Scope;
  /** What the caller's role must allow (ignored for `anyone`). */
  permission: Permission;
  /** The roles that may call it: derived from `permission`. */
  roles: readonly Role[];
  /** Why, in a few words: shown in docs/api.md. */
  why: string;
};

/** A route as OpenAPI writes it: `"POST /api/invoices/{id}/refunds"`. */
export type RouteKey = `${"GET" | "POST" | "PATCH" | "DELETE"} /${string}`;

const allowed = (permission: Permission) => ({ permission, roles: rolesWith(permission) });
const anyone = (why: string): RoutePolicy => ({
  access: "anyone",
  scope: "read",
  ...allowed("view_payments"),
  why,
});
const owner = (permission: Permission, scope: Scope, why: string): RoutePolicy => ({
  access: "owner",
  scope,
  ...allowed(permission),
  why,
});
const holder = (permission: Permission, scope: Scope, why: string): RoutePolicy => ({
  access: "invoice_holder",
  scope,
  ...allowed(permission),
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
  "POST /api/invoices": {
    access: "creator",
    scope: "write",
    ...allowed("invoicing"),
    why: "the spec's open creation",
  },
  "POST /api/links": {
    access: "creator",
    scope: "write",
    ...allowed("invoicing"),
    why: "the spec's open creation",
  },
  "GET /api/invoices/{id}": holder(
    "view_payments",
    "read",
    "the invoice_id is its creator's secret",
  ),
  "GET /api/invoices/{id}/pdf": holder(
    "view_payments",
    "read",
    "the invoice_id is its creator's secret",
  ),
  "GET /api/invoices/{id}/einvoice": holder(
    "view_payments",
    "read",
    "the invoice_id is its creator's secret",
  ),
  "GET /api/invoices/{id}/webhooks": holder(
    "view_account",
    "read",
    "the invoice_id is its creator's secret",
  ),
  "POST /api/invoices/{id}/send": holder(
    "resend_invoice",
    "write",
    "the invoice_id is its creator's secret",
  ),
  "POST /api/invoices/{id}/webhooks/{event_id}/redeliver": holder(
    "developer_tools",
    "write",
    "the invoice_id is its creator's secret",
  ),
  "POST /api/invoices/{id}/void": holder(
    "invoicing",
    "write",
    "the invoice_id is its creator's secret",
  ),
  "POST /api/invoices/{id}/refunds": holder(
    "refunds",
    "write",
    "moves money: the invoice_id, never a slug",
  ),
  "POST /api/invoices/{id}/credit-notes": holder(
    "credit_notes",
    "write",
    "lowers what the invoice asks for",
  ),
  "GET /api/credit-notes/{id}": holder(
    "view_payments",
    "read",
    "as its invoice: the id is its creator's secret",
  ),
  "GET /api/credit-notes/{id}/pdf": holder("view_payments", "read", "as its invoice's PDF"),
  "GET /api/credit-notes/{id}/einvoice": holder(
    "view_payments",
    "read",
    "as its invoice's e-invoice",
  ),
  "GET /api/credit-notes": owner("view_payments", "read", "the merchant's documents"),
  "GET /api/links/{slug}": owner(
    "view_payments",
    "read",
    "a slug is public: internals only to the owner",
  ),
  "POST /api/links/{slug}/refunds": owner("refunds", "write", "moves money: a slug is public"),
  "GET /api/invoices": owner("view_payments", "read", "a list needs a merchant to be scoped to"),
  "GET /api/links": owner("view_payments", "read", "a list needs a merchant to be scoped to"),
  "GET /api/payments": owner("view_payments", "read", "a list needs a merchant to be scoped to"),
  "GET /api/exports/invoices.csv": owner(
    "export",
    "read",
    "a list needs a merchant to be scoped to",
  ),
  "GET /api/exports/payments.csv": owner(
    "export",
    "read",
    "a list needs a merchant to be scoped to",
  ),
  "GET /api/keys": owner("view_account", "read", "the account"),
  "POST /api/keys": owner("developer_tools", "write", "the account"),
  "DELETE /api/keys/{id}": owner("developer_tools", "write", "the account"),
  "GET /api/merchant/wallets": owner("view_account", "read", "the account"),
  "POST /api/merchant/wallets": owner(
    "payouts",
    "write",
    "where money goes; the merchant is emailed",
  ),
  "DELETE /api/merchant/wallets/{address}": owner("payouts", "write", "the account"),
  "GET /api/merchant/payouts": owner("view_account", "read", "the account"),
  "POST /api/merchant/payouts": owner(
    "payouts",
    "write",
    "moves money: to the merchant's own wallets only",
  ),
  "GET /api/merchant/settings": owner("view_account", "read", "the account"),
  "PATCH /api/merchant/settings": owner("settings", "write", "the account; audited"),
  "GET /api/audit": owner("view_account", "read", "the account"),
  "GET /api/webhook-endpoints": owner("view_account", "read", "the account; never a secret"),
  "POST /api/webhook-endpoints": owner("developer_tools", "write", "where events go; audited"),
  "GET /api/webhook-endpoints/{id}": owner("view_account", "read", "the account; never a secret"),
  "PATCH /api/webhook-endpoints/{id}": owner(
    "developer_tools",
    "write",
    "where events go; audited",
  ),
  "POST /api/webhook-endpoints/{id}/rotate-secret": owner(
    "developer_tools",
    "write",
    "a new secret; audited",
  ),
  "POST /api/webhook-endpoints/{id}/test": owner("developer_tools", "write", "calls out"),
  // Last of the endpoint's rows: the authorization matrix deletes the endpoint the others name.
  "DELETE /api/webhook-endpoints/{id}": owner(
    "developer_tools",
    "write",
    "stops its deliveries; audited",
  ),
  "GET /api/events": owner("view_account", "read", "the merchant's event log"),
  "GET /api/events/{id}": owner("view_account", "read", "an event of the merchant's"),
  "POST /api/invoice-schedules": owner(
    "invoicing",
    "write",
    "issues invoices for the merchant; audited",
  ),
  "GET /api/invoice-schedules": owner(
    "view_account",
    "read",
    "a list needs a merchant to be scoped to",
  ),
  "GET /api/invoice-schedules/{id}": owner("view_account", "read", "a schedule of the merchant's"),
  "PATCH /api/invoice-schedules/{id}": owner(
    "invoicing",
    "write",
    "what future invoices bill; audited",
  ),
  "POST /api/invoice-schedules/{id}/pause": owner("invoicing", "write", "audited"),
  "POST /api/invoice-schedules/{id}/resume": owner("invoicing", "write", "audited"),
  "POST /api/invoice-schedules/{id}/run": owner("invoicing", "write", "issues an invoice now"),
  "GET /api/reminder-policy": owner("view_account", "read", "the account"),
  "PATCH /api/reminder-policy": owner("settings", "write", "who is emailed and when; audited"),
  "POST /api/invoices/{id}/remind": owner("invoicing", "write", "emails the vendor; rate-limited"),
  "GET /api/reports/receivables": owner(
    "export",
    "read",
    "a report needs a merchant to be scoped to",
  ),
  "GET /api/exports/receivables.csv": owner(
    "export",
    "read",
    "a report needs a merchant to be scoped to",
  ),
  "GET /api/members": owner("view_account", "read", "the account's team"),
  "POST /api/members": owner("members", "write", "invites by email; the owner is emailed; audited"),
  "PATCH /api/members/{id}": owner(
    "members",
    "write",
    "a member's role; the owner is emailed; audited",
  ),
  "DELETE /api/members/{id}": owner(
    "members",
    "write",
    "ends its sessions and keys at once; the owner is emailed; audited",
  ),
  // After run: the authorization matrix cancels the schedule the rows above name.
  "POST /api/invoice-schedules/{id}/cancel": owner("invoicing", "write", "audited"),
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
  "GET /dashboard/invitations/{token}": anyone(
    "a one-time invitation link: shows a button, changes nothing",
  ),
  "POST /dashboard/invitations/{token}": anyone(
    "a one-time invitation link: joins the team, starts the invitee's session",
  ),
  "POST /dashboard/sign-out": owner("view_payments", "write", "the session"),
  "GET /dashboard": owner("view_payments", "read", "the overview"),
  "GET /dashboard/invoices": owner("view_payments", "read", "the merchant's invoices"),
  "GET /dashboard/invoices/new": owner("invoicing", "read", "the invoice form"),
  "POST /dashboard/invoices/new": owner("invoicing", "write", "creates an invoice"),
  "GET /dashboard/invoices/{id}": owner("view_payments", "read", "an invoice of the merchant's"),
  "POST /dashboard/invoices/{id}/events/{event}/redeliver": owner(
    "developer_tools",
    "write",
    "calls out",
  ),
  "POST /dashboard/invoices/{id}/void": owner("invoicing", "write", "voids an invoice"),
  "POST /dashboard/invoices/{id}/refunds": owner("refunds", "write", "moves money"),
  "POST /dashboard/invoices/{id}/credit-notes": owner(
    "credit_notes",
    "write",
    "issues a credit note: lowers what is owed, emails the vendor",
  ),
  "GET /dashboard/invoices/{id}/einvoice": owner(
    "view_payments",
    "read",
    "an invoice of the merchant's",
  ),
  "GET /dashboard/credit-notes/{id}/pdf": owner(
    "view_payments",
    "read",
    "a credit note of the merchant's",
  ),
  "GET /dashboard/credit-notes/{id}/einvoice": owner(
    "view_payments",
    "read",
    "a credit note of the merchant's",
  ),
  "GET /dashboard/links": owner("view_payments", "read", "the merchant's links"),
  "GET /dashboard/links/new": owner("invoicing", "read", "the link form"),
  "POST /dashboard/links/new": owner("invoicing", "write", "creates a link"),
  "GET /dashboard/links/{slug}": owner("view_payments", "read", "a link of the merchant's"),
  "GET /dashboard/payments": owner("view_payments", "read", "the merchant's payments"),
  "GET /dashboard/keys": owner("view_account", "read", "the account"),
  "POST /dashboard/keys": owner("developer_tools", "write", "the account"),
  "POST /dashboard/keys/{id}/revoke": owner("developer_tools", "write", "the account"),
  "GET /dashboard/members": owner(
    "view_account",
    "read",
    "the account's team (as GET /api/members)",
  ),
  "POST /dashboard/members": owner(
    "members",
    "write",
    "invites by email; the owners are emailed; audited",
  ),
  "POST /dashboard/members/{id}/role": owner(
    "members",
    "write",
    "a member's role; the owners are emailed; audited",
  ),
  // After the role: the authorization matrix removes the member the row above names.
  "POST /dashboard/members/{id}/remove": owner(
    "members",
    "write",
    "ends its sessions and keys, or withdraws its invitation, at once; audited",
  ),
  "GET /dashboard/audit": owner("view_account", "read", "the audit trail (as GET /api/audit)"),
  "GET /dashboard/settings": owner("view_account", "read", "the account"),
  "POST /dashboard/settings": owner("settings", "write", "the account; audited"),
  "POST /dashboard/settings/wallets": owner("payouts", "write", "where money goes"),
  "POST /dashboard/settings/wallets/remove": owner("payouts", "write", "the account"),
  "POST /dashboard/settings/payouts": owner(
    "payouts",
    "write",
    "moves money: to the merchant's own wallets only",
  ),
  "GET /dashboard/exports/{file}": owner("export", "read", "the merchant's records"),
  "GET /dashboard/webhooks": owner("view_account", "read", "the merchant's webhook endpoints"),
  "POST /dashboard/webhooks": owner(
    "developer_tools",
    "write",
    "adds an endpoint: events go out; audited",
  ),
  "GET /dashboard/webhooks/{id}": owner(
    "view_account",
    "read",
    "an endpoint of the merchant's and its deliveries",
  ),
  "POST /dashboard/webhooks/{id}": owner("developer_tools", "write", "where events go; audited"),
  "POST /dashboard/webhooks/{id}/test": owner("developer_tools", "write", "calls out"),
  "POST /dashboard/webhooks/{id}/rotate-secret": owner(
    "developer_tools",
    "write",
    "a new signing secret; audited",
  ),
  "POST /dashboard/webhooks/{id}/disable": owner(
    "developer_tools",
    "write",
    "where events go; audited",
  ),
  "POST /dashboard/webhooks/{id}/enable": owner(
    "developer_tools",
    "write",
    "where events go; audited",
  ),
  // Last of an endpoint's rows: the authorization matrix calls them in this order.
  "POST /dashboard/webhooks/{id}/delete": owner(
    "developer_tools",
    "write",
    "where events go; audited",
  ),
  "GET /dashboard/events": owner("view_account", "read", "the merchant's event log"),
  "GET /dashboard/events/{id}": owner(
    "view_account",
    "read",
    "an event of the merchant's and its deliveries",
  ),
  "GET /dashboard/schedules": owner("view_account", "read", "the merchant's schedules"),
  "GET /dashboard/schedules/new": owner("invoicing", "read", "the schedule form"),
  "POST /dashboard/schedules/new": owner(
    "invoicing",
    "write",
    "issues invoices for the merchant; audited",
  ),
  "GET /dashboard/schedules/{id}": owner("view_account", "read", "a schedule of the merchant's"),
  "GET /dashboard/schedules/{id}/edit": owner(
    "invoicing",
    "read",
    "a schedule of the merchant's, as a form",
  ),
  "POST /dashboard/schedules/{id}/edit": owner(
    "invoicing",
    "write",
    "what future invoices bill; audited",
  ),
  "POST /dashboard/schedules/{id}/pause": owner(
    "invoicing",
    "write",
    "stops its invoices; audited",
  ),
  "POST /dashboard/schedules/{id}/resume": owner(
    "invoicing",
    "write",
    "issues invoices again; audited",
  ),
  "POST /dashboard/schedules/{id}/cancel": owner("invoicing", "write", "ends a schedule; audited"),
  "POST /dashboard/schedules/{id}/run": owner("invoicing", "write", "issues an invoice"),
  "GET /dashboard/receivables": owner("export", "read", "the merchant's receivables"),
  "GET /dashboard/reminders": owner("view_account", "read", "the account"),
  "POST /dashboard/reminders": owner(
    "settings",
    "write",
    "emails the merchant's customers; audited",
  ),
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
    const roles = policy.access === "anyone" ? "anyone" : policy.roles.join(", ");
    const cells = [cell.open, cell.keys, cell.merchant(policy.scope), roles, policy.why];
    const key = cells.join("|");
    const row = rows.get(key) ?? { routes: [], cells };
    row.routes.push(`\`${route}\``);
    rows.set(key, row);
  }
  const lines = [
    "| endpoint | `open` mode, no key | `keys` mode, no key | with a merchant's key | roles | why |",
    "| --- | --- | --- | --- | --- | --- |",
    ...[...rows.values()].map((row) => `| ${[row.routes.join(", "), ...row.cells].join(" | ")} |`),
    "| hosted pages (`/i/`, `/pay/`, `/merchant/`, `/w.js`), `/claim/{token}`, `/refund/{token}` | anyone with the slug or token | same | same | anyone | what a payer sees; no internals, no money out |",
  ];
  return lines.join("\n");
}
