import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import {
  API_POLICY,
  DASHBOARD_POLICY,
  openApiPath,
  ROLES,
  type Role,
  type RouteKey,
  type RoutePolicy,
} from "../../domain/accessPolicy.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import { newDashboardSessionToken } from "../../domain/dashboardSession.ts";
import { projectRoot } from "../../internal/projectRoot.ts";
import {
  bearer,
  claimedMerchant,
  type Merchant,
  readKeyOf,
  registerWallet,
} from "../accounts/accounts.ts";
import { csrfOf } from "../dashboard/dashboard.ts";
import { documentApp } from "../helpers/documentApp.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { type TeamMember, teamMember } from "../members/team.ts";
import { freshAddress } from "../refunds/helpers.ts";

/**
 * The authorization matrix: every operation of /openapi.json and every dashboard route, called
 * on the running service (open mode, the default) by each caller, against its row of the
 * declared policy (domain/accessPolicy.ts), a key and a session of each team role (admin,
 * developer, accountant, support: allowed where the row's roles include it, else 403) among
 * them. "Allowed" means the request got past authorization:
 * anything but 401 and 403, and, for a route that names a record, not the 404 of a record that
 * is not the caller's (every record named here exists). Never a 5xx. A route without a row, or
 * a row without a route, fails the first test. The matrix is printed and written to
 * test-artifacts/authorization-matrix.md.
 */

/** A member of the owner's team with this role: its key (made by it, of its role) or its session. */
type RoleCaller = `the ${Exclude<Role, "owner">}'s ${"key" | "dashboard session"}`;
const TEAM_ROLES = ROLES.filter((role) => role !== "owner") as Exclude<Role, "owner">[];
const roleOf = (caller: Caller): Role | undefined =>
  TEAM_ROLES.find((role) => caller.startsWith(`the ${role}'s `));

type Caller =
  | RoleCaller
  | "anonymous"
  | "anonymous holding the public slug"
  | "another merchant's key"
  | "a read key"
  | "the owner's key"
  | "the owner's dashboard session"
  | "another merchant's dashboard session";

const API_CALLERS: Caller[] = [
  "anonymous",
  "anonymous holding the public slug",
  "another merchant's key",
  "a read key",
  "the owner's dashboard session",
  ...TEAM_ROLES.map((role): Caller => `the ${role}'s key`),
  "the owner's key",
];
const DASHBOARD_CALLERS: Caller[] = [
  "anonymous",
  "anonymous holding the public slug",
  "another merchant's key",
  "a read key",
  "the owner's key",
  "another merchant's dashboard session",
  ...TEAM_ROLES.map((role): Caller => `the ${role}'s dashboard session`),
  "the owner's dashboard session",
];

/**
 * Routes whose first allowed call deletes the record they name: a later allowed caller finds
 * it gone (404), which is no refusal.
 */
const DELETES_ITS_RECORD = new Set([
  "DELETE /api/merchant/wallets/{address}",
  "DELETE /api/webhook-endpoints/{id}",
  "POST /dashboard/webhooks/{id}/delete",
]);

/** What a caller must get: past authorization, or refused with one of these statuses. */
type Expected = "allowed" | readonly number[];

/** Whether a route names a record of a merchant's (a file name or a one-time token is none). */
const namesRecord = (route: string) => /\{(id|slug|event_id|event|address)\}/.test(route);

/** The API's answer to `caller` on a route of `policy`, in open mode, the owner being claimed. */
function expectedOnApi(route: string, policy: RoutePolicy, caller: Caller): Expected {
  if (policy.access === "anyone") return "allowed";
  const role = roleOf(caller);
  // A team member's key: its role's routes, a 403 on every other (the API takes no session).
  if (role && caller.endsWith(" key")) return policy.roles.includes(role) ? "allowed" : [403];
  if (role) return [401];
  switch (caller) {
    // The API reads no cookie: a session is no credential there (and so out of CSRF's reach).
    case "the owner's dashboard session":
    case "anonymous":
      // The owner has an account: open mode's anonymous access is for merchants without one.
      return [401];
    case "anonymous holding the public slug":
      // The slugs of a merchant without an account: creating for it is the spec's open
      // creation; nothing else accepts a slug (as an invoice id it is an unknown one).
      return policy.access === "creator" ? "allowed" : [401, 404];
    case "another merchant's key":
      if (policy.access === "creator") return [403];
      return namesRecord(route) ? [404] : "allowed";
    case "a read key":
      return policy.scope === "write" ? [403] : "allowed";
    default:
      return "allowed";
  }
}

function expectedOnDashboard(route: string, policy: RoutePolicy, caller: Caller): Expected {
  if (policy.access === "anyone") return "allowed";
  const role = roleOf(caller);
  if (role && caller.endsWith(" dashboard session"))
    return policy.roles.includes(role) ? "allowed" : [403];
  if (role) return [303];
  switch (caller) {
    case "the owner's dashboard session":
      return "allowed";
    case "another merchant's dashboard session":
      return namesRecord(route) ? [404] : "allowed";
    default:
      // No session (a key is no credential on the dashboard): to the sign-in page.
      return [303];
  }
}

describe("the authorization matrix: every route × every caller against domain/accessPolicy.ts", () => {
  let stack: TestStack;
  let owner: Merchant;
  let other: Merchant;
  let readKey: string;
  const team: Partial<Record<Role, TeamMember>> = {};
  const sessions: Record<string, string> = {};
  /** Path parameters per caller: the owner's records, or a merchant without an account's public slugs. */
  let ownerParams: Record<string, string>;
  let publicSlugParams: Record<string, string>;
  const seen: string[] = [];
  let clients = 0;

  beforeAll(async () => {
    stack = await startStack({ env: { TRUST_PROXY: "1" } });
    owner = await claimedMerchant(stack.db);
    other = await claimedMerchant(stack.db);
    readKey = await readKeyOf(stack, owner);
    for (const role of TEAM_ROLES) team[role] = await teamMember(stack.db, owner, role);
    // The members the members' routes change and remove: the API's, and the dashboard's.
    const spareMember = await teamMember(stack.db, owner, "support");
    const dashboardSpareMember = await teamMember(stack.db, owner, "support");
    const wallet = freshAddress();
    expect((await registerWallet(stack, owner, wallet)).status).toBe(201);
    const post = async (route: string, json: unknown, key?: string) => {
      const response = await stack.request(route, {
        method: "POST",
        json,
        headers: key ? bearer(key) : {},
      });
      expect(response.status, route).toBe(201);
      return (await response.json()) as Record<string, string>;
    };
    const invoice = await post(
      "/api/invoices",
      invoiceRequest({ merchant_email: owner.email }),
      owner.key,
    );
    const link = await post("/api/links", linkRequest({ merchant_email: owner.email }), owner.key);
    // A credit note of another of the owner's invoices, for the credit notes' own routes.
    const credited = await post(
      "/api/invoices",
      invoiceRequest({ merchant_email: owner.email }),
      owner.key,
    );
    const creditNote = await post(
      `/api/invoices/${credited.invoice_id}/credit-notes`,
      { full: true, reason: "Cancelled" },
      owner.key,
    );
    const spareKey = await post("/api/keys", { name: "to revoke" }, owner.key);
    const spareKey2 = await post("/api/keys", { name: "to revoke too" }, owner.key);
    const endpoint = await post(
      "/api/webhook-endpoints",
      { url: "https://hooks.example.com/remit" },
      owner.key,
    );
    const {
      issue_date: _issue,
      due_date: _due,
      ...template
    } = invoiceRequest({
      merchant_email: owner.email,
    });
    const schedule = await post(
      "/api/invoice-schedules",
      { invoice: template, interval: "monthly", start_date: "2099-01-31", days_until_due: 30 },
      owner.key,
    );
    // The API's DELETE removes the first; the dashboard's routes get their own.
    const dashboardEndpoint = await post(
      "/api/webhook-endpoints",
      { url: "https://hooks.example.com/remit-dashboard" },
      owner.key,
    );
    // An event of the owner's invoice, to redeliver.
    const eventId = randomUUID();
    await stack.db
      .insertInto("app.payment_events")
      .values({
        id: eventId,
        invoice_id: invoice.invoice_id as string,
        link_id: null,
        type: "invoice.paid",
        status: "paid",
        paid_amount: 0n,
        tx_hash: null,
        paid_at: null,
        payload: "{}",
      })
      .execute();
    ownerParams = {
      id: invoice.invoice_id as string,
      slug: link.slug as string,
      invoiceSlug: invoice.slug as string,
      event_id: eventId,
      event: eventId,
      key_id: spareKey.id as string,
      dashboard_key_id: spareKey2.id as string,
      endpoint_id: endpoint.id as string,
      schedule_id: schedule.schedule_id as string,
      credit_note_id: creditNote.credit_note_id as string,
      dashboard_endpoint_id: dashboardEndpoint.id as string,
      address: wallet,
      member_id: spareMember.memberId,
      dashboard_member_id: dashboardSpareMember.memberId,
      tx_hash: `0x${"ab".repeat(32)}`,
      token: "x".repeat(43),
      file: "invoices.csv",
    };
    // A merchant without an account, in open mode: its public slugs, in every slot.
    const unclaimedEmail = `open-${randomUUID()}@example.com`;
    const openInvoice = await post(
      "/api/invoices",
      invoiceRequest({ merchant_email: unclaimedEmail }),
    );
    const openLink = await post("/api/links", linkRequest({ merchant_email: unclaimedEmail }));
    publicSlugParams = {
      ...ownerParams,
      id: openInvoice.slug as string,
      slug: openLink.slug as string,
      invoiceSlug: openInvoice.slug as string,
      merchant_email: unclaimedEmail,
    };
    for (const [name, merchant] of [
      ["owner", owner],
      ["other", other],
    ] as const) {
      const token = newDashboardSessionToken();
      await insertDashboardSession(stack.db, {
        merchantId: merchant.merchantId,
        tokenHash: hashSecretToken(token),
        absoluteMinutes: 60,
      });
      sessions[name] = `remit_dashboard=${token}`;
    }
  });
  afterAll(async () => {
    if (seen.length > 0) {
      const table = [
        "| route | caller | expected | got |",
        "| --- | --- | --- | --- |",
        ...seen,
      ].join("\n");
      const dir = path.join(projectRoot, "test-artifacts");
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "authorization-matrix.md"), `${table}\n`);
      console.log(`authorization matrix (${seen.length} calls):\n${table}`);
    }
    await stack?.stop();
  });

  test("every route of /openapi.json and of the dashboard has one row, and every row a route", async () => {
    const document = (await (await stack.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`),
    );
    expect(operations.sort()).toEqual(Object.keys(API_POLICY).sort());
    const dashboardRoutes = documentApp()
      .routes.filter((r) => r.method !== "ALL" && /^\/dashboard(\/|$)/.test(r.path))
      .filter((r) => !r.path.includes("*"))
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect([...new Set(dashboardRoutes)].sort()).toEqual(Object.keys(DASHBOARD_POLICY).sort());
  });

  /** The URL of `route` with the caller's parameters. */
  const urlOf = (route: string, params: Record<string, string>) => {
    const pathOf = route.slice(route.indexOf(" ") + 1);
    return pathOf.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === "slug" && pathOf.startsWith("/api/invoices/by-slug/"))
        return params.invoiceSlug ?? "";
      if (name === "id" && pathOf.startsWith("/api/keys/")) return params.key_id ?? "";
      if (name === "id" && pathOf.startsWith("/api/members/")) return params.member_id ?? "";
      if (name === "id" && pathOf.startsWith("/api/webhook-endpoints/"))
        return params.endpoint_id ?? "";
      if (name === "id" && pathOf.startsWith("/api/events/")) return params.event_id ?? "";
      if (name === "id" && pathOf.startsWith("/api/invoice-schedules/"))
        return params.schedule_id ?? "";
      if (name === "id" && pathOf.startsWith("/api/credit-notes/"))
        return params.credit_note_id ?? "";
      if (name === "id" && pathOf.startsWith("/dashboard/credit-notes/"))
        return params.credit_note_id ?? "";
      if (name === "id" && pathOf.startsWith("/dashboard/schedules/"))
        return params.schedule_id ?? "";
      if (name === "id" && pathOf.startsWith("/dashboard/members/"))
        return params.dashboard_member_id ?? "";
      if (name === "id" && pathOf.startsWith("/dashboard/keys/"))
        return params.dashboard_key_id ?? "";
      if (name === "id" && pathOf.startsWith("/dashboard/webhooks/"))
        return params.dashboard_endpoint_id ?? "";
      if (name === "id" && pathOf.startsWith("/dashboard/events/")) return params.event_id ?? "";
      if (name === "id" && pathOf.includes("/authorizations/")) return randomUUID();
      return encodeURIComponent(params[name] ?? "");
    });
  };

  /** A valid query for the routes that require one, so that the request gets to authorization. */
  const QUERIES: Partial<Record<RouteKey, string>> = {
    "GET /api/invoices/{id}/einvoice": "?format=cii",
    "GET /api/credit-notes/{id}/einvoice": "?format=cii",
    "GET /dashboard/invoices/{id}/einvoice": "?format=cii",
    "GET /dashboard/credit-notes/{id}/einvoice": "?format=cii",
  };

  /** The routes that deleted their record already (DELETES_ITS_RECORD). */
  const deleted = new Set<string>();
  const check = (
    route: string,
    policy: RoutePolicy,
    caller: Caller,
    expected: Expected,
    status: number,
  ) => {
    seen.push(
      `| \`${route}\` | ${caller} | ${expected === "allowed" ? "allowed" : expected.join(" or ")} | ${status} |`,
    );
    expect(status, `${route} as ${caller}`).toBeLessThan(500);
    if (expected !== "allowed") {
      expect(expected, `${route} as ${caller}: ${status}`).toContain(status);
      return;
    }
    expect([401, 403], `${route} as ${caller}: ${status}`).not.toContain(status);
    // A merchant's route naming one of its records: found (every record named here exists).
    if (policy.access !== "anyone" && namesRecord(route) && !deleted.has(route))
      expect(status, `${route} as ${caller}: the record is the caller's`).not.toBe(404);
    if (DELETES_ITS_RECORD.has(route)) deleted.add(route);
  };

  test("the JSON API", async () => {
    for (const [route, policy] of Object.entries(API_POLICY) as [RouteKey, RoutePolicy][]) {
      const method = route.slice(0, route.indexOf(" "));
      for (const caller of API_CALLERS) {
        const params =
          caller === "anonymous holding the public slug" ? publicSlugParams : ownerParams;
        const headers: Record<string, string> = {
          "X-Forwarded-For": `198.18.${Math.floor(++clients / 200)}.${(clients % 200) + 1}`,
        };
        if (caller === "another merchant's key") headers.authorization = `Bearer ${other.key}`;
        if (caller === "a read key") headers.authorization = `Bearer ${readKey}`;
        if (caller === "the owner's key") headers.authorization = `Bearer ${owner.key}`;
        if (caller === "the owner's dashboard session") headers.cookie = sessions.owner ?? "";
        const member = team[roleOf(caller) ?? "owner"];
        if (member && caller.endsWith(" key")) headers.authorization = `Bearer ${member.key}`;
        // Creation: a real body naming the caller's merchant (an unclaimed one for the slug holder).
        const merchantEmail = params.merchant_email ?? owner.email;
        const json =
          route === "POST /api/invoices"
            ? invoiceRequest({ merchant_email: merchantEmail })
            : route === "POST /api/links"
              ? linkRequest({ merchant_email: merchantEmail })
              : route === "POST /api/invoices/{id}/credit-notes"
                ? { full: true, reason: "the matrix" }
                : route === "PATCH /api/members/{id}"
                  ? // The spare member's own role: a change that changes nothing.
                    { role: "support" }
                  : {};
        const response = await stack.request(`${urlOf(route, params)}${QUERIES[route] ?? ""}`, {
          method,
          headers,
          ...(method === "GET" || method === "DELETE" ? {} : { json }),
        });
        await response.arrayBuffer();
        check(route, policy, caller, expectedOnApi(route, policy, caller), response.status);
      }
    }
  });

  test("the dashboard", async () => {
    const csrf = {
      owner: await csrfOf(stack, sessions.owner ?? ""),
      other: await csrfOf(stack, sessions.other ?? ""),
    };
    const memberCsrf: Partial<Record<Role, string>> = {};
    for (const role of TEAM_ROLES)
      memberCsrf[role] = await csrfOf(stack, team[role]?.cookie ?? "", "/dashboard/invoices");
    // Signing out ends the owner's session: last.
    const routes = (Object.entries(DASHBOARD_POLICY) as [RouteKey, RoutePolicy][]).sort(
      ([a], [b]) => Number(a.endsWith("/sign-out")) - Number(b.endsWith("/sign-out")),
    );
    for (const [route, policy] of routes) {
      const method = route.slice(0, route.indexOf(" "));
      for (const caller of DASHBOARD_CALLERS) {
        const params =
          caller === "anonymous holding the public slug" ? publicSlugParams : ownerParams;
        const headers: Record<string, string> = {
          origin: new URL(stack.api.url).origin,
          "sec-fetch-site": "same-origin",
        };
        let token = "";
        if (caller === "another merchant's key") headers.authorization = `Bearer ${other.key}`;
        if (caller === "a read key") headers.authorization = `Bearer ${readKey}`;
        if (caller === "the owner's key") headers.authorization = `Bearer ${owner.key}`;
        if (caller === "the owner's dashboard session") {
          headers.cookie = sessions.owner ?? "";
          token = csrf.owner;
        }
        if (caller === "another merchant's dashboard session") {
          headers.cookie = sessions.other ?? "";
          token = csrf.other;
        }
        const member = team[roleOf(caller) ?? "owner"];
        if (member && caller.endsWith(" key")) headers.authorization = `Bearer ${member.key}`;
        if (member && caller.endsWith(" dashboard session")) {
          headers.cookie = member.cookie;
          token = memberCsrf[roleOf(caller) ?? "owner"] ?? "";
        }
        const response = await stack.request(`${urlOf(route, params)}${QUERIES[route] ?? ""}`, {
          method,
          redirect: "manual",
          headers:
            method === "POST"
              ? { ...headers, "content-type": "application/x-www-form-urlencoded" }
              : headers,
          ...(method === "POST" ? { body: new URLSearchParams({ _csrf: token }).toString() } : {}),
        });
        await response.arrayBuffer();
        check(route, policy, caller, expectedOnDashboard(route, policy, caller), response.status);
        if (caller === "anonymous" && policy.access === "owner")
          expect(response.headers.get("location"), route).toBe("/dashboard/sign-in");
      }
    }
  });
});
