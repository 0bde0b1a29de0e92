import { createHmac, timingSafeEqual } from "node:crypto";
import type { Role } from "./accessPolicy.ts";
import { newSlug } from "./tokens.ts";

/**
 * A dashboard session's lifetime (docs/dashboard.md, "Sessions"): it ends after IDLE_MINUTES
 * without a request, and ABSOLUTE_MINUTES after sign-in whatever happens, or at sign-out.
 */
export const DASHBOARD_SESSION_IDLE_MINUTES = 60;
export const DASHBOARD_SESSION_ABSOLUTE_MINUTES = 12 * 60;

/** A session cookie's token: 43 base58 characters (252 bits); stored only hashed. */
export const newDashboardSessionToken = (): string => newSlug(43);

/** What newDashboardSessionToken makes: any other cookie value is no session (no lookup). */
export const DASHBOARD_SESSION_TOKEN_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{43}$/;

/**
 * The cookie's name: with `Secure`, the `__Host-` prefix makes the browser refuse it unless it
 * was set by this very host over https, with Path=/ and no Domain (no sibling subdomain can
 * plant or overwrite it: session fixation through a cookie is closed).
 */
export const dashboardCookieName = (secure: boolean): string =>
  secure ? "__Host-remit_dashboard" : "remit_dashboard";

/**
 * The session's CSRF token (a hidden field of every dashboard form): an HMAC of a fixed label
 * under the session token. Nothing to store, different for every session, and unguessable
 * without the cookie, which pages on other sites can neither read nor make the browser reveal.
 *
 * @example csrfTokenFor("7Hq…") // "Xk3…" (43 base64url characters)
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update("remit dashboard csrf v1").digest("base64url");
}

/** Whether `submitted` is the session's CSRF token (compared in constant time). */
export function isCsrfTokenValid(sessionToken: string, submitted: string | undefined): boolean {
  if (typeof submitted !== "string") return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The form field carrying the CSRF token. */
export const CSRF_FIELD = "_csrf";

/**
 * A browser signed in to a merchant's dashboard as one of its members: an identity like a write
 * key of its merchant limited to the member's role.
 */
export type DashboardSessionIdentity = {
  kind: "session";
  sessionId: string;
  merchantId: string;
  /** Lower-case, as stored. */
  merchantEmail: string;
  /** The member signed in (null: the service itself, a schedule's issuing). */
  memberId: string | null;
  /** Lower-case: the address the member signed in with. */
  memberEmail: string;
  memberRole: Role;
};
