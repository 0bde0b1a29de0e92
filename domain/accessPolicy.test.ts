import { describe, expect, test } from "vitest";
import { API_POLICY, DASHBOARD_POLICY, isDeclared, openApiPath, policyOf } from "./accessPolicy.ts";

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
      "POST /dashboard/notification-email/{token}",
      "POST /dashboard/sign-in",
      "POST /dashboard/sign-in/{token}",
    ]);
  });
});
