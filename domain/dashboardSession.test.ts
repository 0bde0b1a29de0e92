import { describe, expect, test } from "vitest";
import {
  csrfTokenFor,
  DASHBOARD_SESSION_TOKEN_PATTERN,
  dashboardCookieName,
  isCsrfTokenValid,
  newDashboardSessionToken,
} from "./dashboardSession.ts";

describe("dashboard session tokens", () => {
  test("are new each time and match their pattern", () => {
    const a = newDashboardSessionToken();
    const b = newDashboardSessionToken();
    expect(a).not.toBe(b);
    expect(a).toMatch(DASHBOARD_SESSION_TOKEN_PATTERN);
  });

  test("a CSRF token is the session's own: another session's, a prefix or nothing is refused", () => {
    const session = newDashboardSessionToken();
    const token = csrfTokenFor(session);
    expect(csrfTokenFor(session)).toBe(token);
    expect(isCsrfTokenValid(session, token)).toBe(true);
    expect(isCsrfTokenValid(session, csrfTokenFor(newDashboardSessionToken()))).toBe(false);
    expect(isCsrfTokenValid(session, token.slice(0, -1))).toBe(false);
    expect(isCsrfTokenValid(session, "")).toBe(false);
    expect(isCsrfTokenValid(session, undefined)).toBe(false);
  });

  test("the cookie is __Host- prefixed only when Secure", () => {
    expect(dashboardCookieName(true)).toBe("__Host-remit_dashboard");
    expect(dashboardCookieName(false)).toBe("remit_dashboard");
  });
});
