import { describe, expect, test } from "vitest";
import {
  API_POLICY,
  DASHBOARD_POLICY,
  isDeclared,
  mayGrant,
  openApiPath,
  PERMISSIONS,
  policyOf,
  ROLE_PERMISSIONS,
  ROLES,
  type RouteKey,
  roleAllows,
  rolesWith,
} from "./accessPolicy.ts";

describe("the declared authorization policy", () => {
  test("Hono patterns read as OpenAPI paths", () => {
    expect(openApiPath("/api/invoices/:id/webhooks/:event_id/redeliver")).toBe(
      "/api/invoices/{id}/webhooks/{event_id}/redeliver",
    );
    expect(openApiPath("/api/invoices/{id}")).toBe("/api/invoices/{id}");
  });

  test("HEAD is GET; an undeclared route has no row", () => {
    expect(policyOf(API_POLICY, "HEAD", "/api/invoices/:id/status")?.access).toBe("anyone");
    expect(policyOf(API_POLICY, "DELETE", "/api/invoices/:id")).toBeUndefined();
    expect(isDeclared("GET", "/api/invoices/:id/secret")).toBe(false);
    expect(isDeclared("POST", "/dashboard/invoices/:id/void")).toBe(true);
  });

  test("money never moves on a public identifier: every route keyed by a slug that is not `anyone` is `owner`", () => {
    for (const [route, policy] of Object.entries({ ...API_POLICY, ...DASHBOARD_POLICY })) {
      if (route.includes("{slug}") && policy.access !== "anyone")
        expect([route, policy.access]).toEqual([route, "owner"]);
    }
    expect(API_POLICY["POST /api/links/{slug}/refunds"]?.access).toBe("owner");
    expect(API_POLICY["GET /api/links/{slug}"]?.access).toBe("owner");
  });

  test("the only anonymous writes are a payer's, a claim and signing in", () => {
    const anonymousWrites = Object.entries({ ...API_POLICY, ...DASHBOARD_POLICY })
      .filter(([route, p]) => p.access === "anyone" && !route.startsWith("GET "))
      .map(([route]) => route);
    expect(anonymousWrites.sort()).toEqual([
      "POST /api/merchants/claim",
      "POST /api/payments/{slug}/authorizations",
      "POST /dashboard/claim",
      "POST /dashboard/invitations/{token}",
      "POST /dashboard/notification-email/{token}",
      "POST /dashboard/sign-in",
      "POST /dashboard/sign-in/{token}",
    ]);
  });
});

describe("roles, declared as permissions", () => {
  const roles = (route: RouteKey) =>
    [...(API_POLICY[route] ?? DASHBOARD_POLICY[route] ?? { roles: [] }).roles].sort();

  test("money moves, wallets and members only at an owner's or admin's word", () => {
    for (const route of [
      "POST /api/invoices/{id}/refunds",
      "POST /api/links/{slug}/refunds",
      "POST /api/merchant/wallets",
      "DELETE /api/merchant/wallets/{address}",
      "POST /api/merchant/payouts",
      "POST /api/members",
      "PATCH /api/members/{id}",
      "DELETE /api/members/{id}",
      "POST /dashboard/invoices/{id}/refunds",
      "POST /dashboard/settings/wallets",
      "POST /dashboard/settings/payouts",
    ] as RouteKey[])
      expect([route, roles(route)]).toEqual([route, ["admin", "owner"]]);
  });

  test("each role's reach, as issue 46 lists it", () => {
    expect(roles("POST /api/keys")).toEqual(["admin", "developer", "owner"]);
    expect(roles("POST /api/webhook-endpoints/{id}/test")).toEqual(["admin", "developer", "owner"]);
    expect(roles("GET /api/exports/payments.csv")).toEqual([
      "accountant",
      "admin",
      "developer",
      "owner",
    ]);
    expect(roles("POST /api/invoices/{id}/credit-notes")).toEqual(["accountant", "admin", "owner"]);
    expect(roles("GET /api/reports/receivables")).toContain("accountant");
    // Support: reads invoices, links and payments, resends an invoice email; nothing else.
    const support = Object.entries({ ...API_POLICY, ...DASHBOARD_POLICY })
      .filter(([, p]) => p.access !== "anyone" && p.roles.includes("support"))
      .map(([route]) => route);
    for (const route of support)
      expect(route).toMatch(
        /^(GET \/(api|dashboard)\/(invoices|links|payments|credit-notes)|GET \/dashboard$|POST \/api\/invoices\/\{id\}\/send$|POST \/dashboard\/sign-out$)/,
      );
    expect(support).toContain("POST /api/invoices/{id}/send");
    expect(support).toContain("GET /api/payments");
  });

  test("only an owner holds ownership; a role never grants more than it holds", () => {
    expect(rolesWith("ownership")).toEqual(["owner"]);
    expect(roleAllows("admin", "ownership")).toBe(false);
    expect(mayGrant("owner", "owner")).toBe(true);
    expect(mayGrant("admin", "owner")).toBe(false);
    expect(mayGrant("admin", "admin")).toBe(true);
    expect(mayGrant("developer", "developer")).toBe(true);
    expect(mayGrant("developer", "admin")).toBe(false);
    expect(mayGrant("developer", "accountant")).toBe(false); // credit notes: not a developer's
    expect(mayGrant("accountant", "support")).toBe(true);
    expect(mayGrant("support", "accountant")).toBe(false);
  });

  test("a key without a role (made before roles) may do all its scope allows, as before", () => {
    for (const permission of PERMISSIONS) expect(roleAllows(null, permission)).toBe(true);
    expect(mayGrant(null, "owner")).toBe(true);
  });

  test("every row's roles are derived from its permission, owner always among them", () => {
    for (const [route, policy] of Object.entries({ ...API_POLICY, ...DASHBOARD_POLICY })) {
      expect([route, policy.roles]).toEqual([route, rolesWith(policy.permission)]);
      expect([route, policy.roles.includes("owner")]).toEqual([route, true]);
    }
    for (const role of ROLES)
      for (const permission of ROLE_PERMISSIONS[role]) expect(PERMISSIONS).toContain(permission);
  });
});
