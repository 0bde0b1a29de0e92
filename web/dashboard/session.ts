import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { matchedRoutes } from "hono/route";
import { mayAct } from "../../app/authorize.ts";
import { clearExpiredSessions, endSessionOf, resumeSession } from "../../app/dashboard/sessions.ts";
import type { Db } from "../../db/database.ts";
import { DASHBOARD_POLICY, policyOf } from "../../domain/accessPolicy.ts";
import {
  CSRF_FIELD,
  csrfTokenFor,
  DASHBOARD_SESSION_ABSOLUTE_MINUTES,
  DASHBOARD_SESSION_TOKEN_PATTERN,
  type DashboardSessionIdentity,
  dashboardCookieName,
  isCsrfTokenValid,
} from "../../domain/dashboardSession.ts";

/** A signed-in merchant, as the dashboard's pages see it. */
export type SignedIn = {
  identity: DashboardSessionIdentity;
  /** The hidden field of every form of this session. */
  csrf: string;
  /** The cookie's token (to end the session at sign-out). */
  token: string;
};

export type DashboardEnv = { Variables: { requestId: string; signedIn: SignedIn } };

export { CSRF_FIELD };

export type CookieSettings = { secure: boolean };

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure (and `__Host-`) over https. */
export function setSessionCookie(c: Context, settings: CookieSettings, token: string): void {
  setCookie(c, dashboardCookieName(settings.secure), token, {
    httpOnly: true,
    secure: settings.secure,
    sameSite: "Lax",
    path: "/",
    // The browser forgets it when the session would end anyway.
    maxAge: DASHBOARD_SESSION_ABSOLUTE_MINUTES * 60,
  });
}

export function clearSessionCookie(c: Context, settings: CookieSettings): void {
  deleteCookie(c, dashboardCookieName(settings.secure), {
    path: "/",
    secure: settings.secure,
    httpOnly: true,
    sameSite: "Lax",
  });
}

/** The session cookie's token, when it is shaped like one of ours. */
export function sessionTokenOf(c: Context, settings: CookieSettings): string | undefined {
  const token = getCookie(c, dashboardCookieName(settings.secure));
  return token && DASHBOARD_SESSION_TOKEN_PATTERN.test(token) ? token : undefined;
}

/** Ends the session this browser carries, if any (sign-out; a new sign-in over an old one). */
export async function endSession(c: Context, db: Db, settings: CookieSettings): Promise<void> {
  const token = sessionTokenOf(c, settings);
  if (token) await endSessionOf(db, token);
  clearSessionCookie(c, settings);
}

/**
 * Signs this browser in under a new session's token (a sign-in or a claim link followed):
 * whatever session it carried, a planted one included, ends first, so a sign-in always gets a
 * new token; sessions past their end are swept as it goes.
 */
export async function startSession(
  c: Context,
  db: Db,
  settings: CookieSettings,
  token: string,
): Promise<void> {
  await endSession(c, db, settings);
  setSessionCookie(c, settings, token);
  await clearExpiredSessions(db);
}

/**
 * Every dashboard page but sign-in: the browser's session, looked up by its token's hash on
 * every request (sign-out holds at once, on every replica), or a redirect to sign-in.
 */
export function requireSession(db: Db, settings: CookieSettings): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const token = sessionTokenOf(c, settings);
    const identity = token && (await resumeSession(db, token));
    if (!token || !identity) {
      if (token) clearSessionCookie(c, settings);
      return c.redirect("/dashboard/sign-in", 303);
    }
    c.set("signedIn", {
      identity,
      csrf: csrfTokenFor(token),
      token,
    });
    return next();
  };
}

/**
 * The member's role against the route's row of DASHBOARD_POLICY (app/authorize.ts, the same
 * check as the API's): a route its role may not use is the 403 page, before its handler runs.
 */
export function requireRole(
  forbidden: (c: Context<DashboardEnv>) => Response | Promise<Response>,
): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    // The endpoint is the first route matched that is bound to a method and to no wildcard
    // (middleware is bound to "ALL" or to `*`; `/invoices/new` answers before `/invoices/:id`).
    const pattern = matchedRoutes(c).find(
      (route) => route.method !== "ALL" && !route.path.includes("*"),
    )?.path;
    if (pattern === undefined) return next();
    const policy = policyOf(DASHBOARD_POLICY, c.req.method, pattern);
    if (policy?.access === "anyone") return next();
    const { identity } = c.get("signedIn");
    if (!policy || !mayAct(identity, policy.permission)) return forbidden(c);
    return next();
  };
}

/**
 * Whether a signed-in POST carries its session's CSRF token (the hidden field every form has).
 * A page on another site can make the browser post with the cookie (SameSite=Lax allows
 * top-level navigations' GETs only, but older browsers and same-site subdomains are not to be
 * trusted), but can never read the token.
 */
export const hasValidCsrfToken = (signedIn: SignedIn, form: Record<string, unknown>): boolean =>
  isCsrfTokenValid(
    signedIn.token,
    typeof form[CSRF_FIELD] === "string" ? form[CSRF_FIELD] : undefined,
  );
