import type { Db } from "../../db/database.ts";
import { isClaimTokenUsable, useClaimToken } from "../../db/queries/claimTokens.ts";
import { isNotificationEmailTokenUsable } from "../../db/queries/dashboard.ts";
import {
  deleteDashboardSession,
  deleteExpiredDashboardSessions,
  findLiveDashboardSession,
  insertDashboardSession,
  touchDashboardSession,
} from "../../db/queries/dashboardSessions.ts";
import { findSignInMember } from "../../db/queries/members.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import {
  DASHBOARD_SESSION_ABSOLUTE_MINUTES,
  DASHBOARD_SESSION_IDLE_MINUTES,
  type DashboardSessionIdentity,
  newDashboardSessionToken,
} from "../../domain/dashboardSession.ts";
import type { CoreDeps } from "../deps.ts";
import { emailOneTimeLink } from "../merchants/oneTimeLink.ts";

/**
 * Emails a sign-in link when `email` is a claimed merchant's, or an active member's of one (capped per address and per
 * address and `client` as claim links are). Says nothing back: the page answers the same
 * whatever happened.
 */
export async function requestSignInLink(
  deps: Pick<CoreDeps, "db" | "log" | "webhookKeys">,
  email: string,
  client: string,
): Promise<void> {
  const sent = await deps.db.transaction().execute(async (trx) => {
    // Only a verified address may sign in: a claimed account's, or an active member's of one
    // (a member proved its address by following its invitation).
    if (!(await findSignInMember(trx, email))) return false;
    const decision = await emailOneTimeLink(trx, deps, {
      email,
      purpose: "dashboard_sign_in",
      client,
    });
    return decision !== "withheld";
  });
  deps.log.info("dashboard sign-in requested", { link_sent: sent });
}

/** Whether a sign-in link's token still works (unknown, used and expired ones do not). */
export const isSignInLinkUsable = (db: Db, token: string): Promise<boolean> =>
  isClaimTokenUsable(db, hashSecretToken(token), "dashboard_sign_in");

/**
 * Uses a sign-in link's token once: a new session for its address's member (of its own account
 * first, else of the team it joined last: db/queries/members.ts), as its token (for
 * the cookie), or null when the link does not work. Expired sessions are cleared on the way.
 */
export async function signInWithLink(db: Db, token: string): Promise<string | null> {
  const sessionToken = newDashboardSessionToken();
  const merchantId = await db.transaction().execute(async (trx) => {
    const email = await useClaimToken(trx, hashSecretToken(token), "dashboard_sign_in");
    const member = email ? await findSignInMember(trx, email) : undefined;
    if (!member) return null;
    await insertDashboardSession(trx, {
      ...member,
      tokenHash: hashSecretToken(sessionToken),
      absoluteMinutes: DASHBOARD_SESSION_ABSOLUTE_MINUTES,
    });
    return member.merchantId;
  });
  return merchantId ? sessionToken : null;
}

/** Clears the sessions past their absolute lifetime. */
export const clearExpiredSessions = (db: Db): Promise<void> => deleteExpiredDashboardSessions(db);

/**
 * The live session of a session token, looked up by its hash on every request (sign-out holds
 * at once, on every replica), its idle clock restarted at most once a minute; undefined when
 * there is none.
 */
export async function resumeSession(
  db: Db,
  token: string,
): Promise<DashboardSessionIdentity | undefined> {
  const session = await findLiveDashboardSession(
    db,
    hashSecretToken(token),
    DASHBOARD_SESSION_IDLE_MINUTES,
  );
  if (!session) return undefined;
  if (Date.now() - session.lastSeenAt.getTime() > 60_000)
    await touchDashboardSession(db, session.sessionId);
  return {
    kind: "session",
    sessionId: session.sessionId,
    merchantId: session.merchantId,
    merchantEmail: session.merchantEmail,
    memberId: session.memberId,
    memberEmail: session.memberEmail,
    memberRole: session.memberRole,
  };
}

/** Ends the session of a session token (sign-out; a new sign-in over an old one). */
export const endSessionOf = (db: Db, token: string): Promise<void> =>
  deleteDashboardSession(db, hashSecretToken(token));

/** Whether a new notification email's link still works. */
export const isNotificationEmailLinkUsable = (db: Db, token: string): Promise<boolean> =>
  isNotificationEmailTokenUsable(db, hashSecretToken(token));
