import type { Context, Hono, MiddlewareHandler } from "hono";
import {
  isSignInLinkUsable,
  requestSignInLink,
  signInWithLink,
} from "../../../app/dashboard/sessions.ts";
import { isInvitationUsable, joinWithInvitation } from "../../../app/members/manageMembers.ts";
import { requestClaimLink } from "../../../app/merchants/claim.ts";
import { emailAddress } from "../../../app/schemaFields.ts";
import { CLAIM_TOKEN_PATTERN } from "../../../domain/apiKeys.ts";
import { textFields } from "../forms.ts";
import {
  ClaimSentPage,
  InvitationConfirmPage,
  InvitationRefusedPage,
  SignInConfirmPage,
  SignInPage,
  SignInRefusedPage,
  SignInSentPage,
} from "../pages/signIn.tsx";
import { type DashboardEnv, endSession, startSession } from "../session.ts";
import { type DashboardDeps, dashboardCookieSettings, emailedLinkPage } from "./shared.tsx";

/** What the composition root gives the sign-in forms: the client's IP and its rate limit. */
export type SignInGuards = {
  /** The request's client IP, as the rate limits count it (trusted proxies' X-Forwarded-For). */
  clientOf(c: Context): string;
  /** Per client IP, on the sign-in and claim forms' POST, as on claims; none: unlimited. */
  signInRateLimit: MiddlewareHandler | null;
};

const isEmailAddress = (text: string) => emailAddress.safeParse(text).success;

/** Sign-in, outside a session: the form, its emailed link, and the "no account yet?" claim. */
export function registerSignIn(
  app: Hono<DashboardEnv>,
  deps: DashboardDeps,
  guards: SignInGuards,
): void {
  const cookies = dashboardCookieSettings(deps);
  app.get("/dashboard/sign-in", (c) =>
    c.html(
      <SignInPage
        notice={c.req.query("signed_out") === "1" ? "signed_out" : undefined}
        signupOpen={deps.auth?.signup !== "closed"}
      />,
    ),
  );
  if (guards.signInRateLimit) app.post("/dashboard/sign-in", guards.signInRateLimit);
  /**
   * A form that asks for a link by email: a well-formed address only is sent one, and the
   * answer is the same page whatever happened, so nobody learns which emails have accounts.
   */
  const linkRequest =
    (
      request: (deps: DashboardDeps, email: string, client: string) => Promise<void>,
      Answer: typeof SignInSentPage,
    ) =>
    async (c: Context) => {
      const form = textFields(await c.req.parseBody());
      const email = form.email?.trim() ?? "";
      if (isEmailAddress(email)) await request(deps, email.toLowerCase(), guards.clientOf(c));
      return c.html(<Answer />);
    };
  app.post("/dashboard/sign-in", linkRequest(requestSignInLink, SignInSentPage));
  // The sign-in page's "no account yet?" form: POST /api/merchants/claim's own logic, and as
  // there one answer whatever happened (an account or none, a link sent or withheld).
  if (guards.signInRateLimit) app.post("/dashboard/claim", guards.signInRateLimit);
  app.post("/dashboard/claim", linkRequest(requestClaimLink, ClaimSentPage));

  const refused = (c: Context) => c.html(<SignInRefusedPage />, 410);
  app.get(
    "/dashboard/sign-in/:token",
    emailedLinkPage((token) => isSignInLinkUsable(deps.db, token), SignInConfirmPage, refused),
  );
  app.post("/dashboard/sign-in/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    const sessionToken = await signInWithLink(deps.db, token);
    if (!sessionToken) return refused(c);
    await startSession(c, deps.db, cookies, sessionToken);
    deps.log.info("dashboard signed in");
    return c.redirect("/dashboard", 303);
  });

  // An invitation to a team: the invitee joins and signs in with its own address.
  const invitationRefused = (c: Context) => c.html(<InvitationRefusedPage />, 410);
  app.get(
    "/dashboard/invitations/:token",
    emailedLinkPage(
      (token) => isInvitationUsable(deps, token),
      InvitationConfirmPage,
      invitationRefused,
    ),
  );
  app.post("/dashboard/invitations/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return invitationRefused(c);
    const sessionToken = await joinWithInvitation(deps, token, c.get("requestId") ?? null);
    if (!sessionToken) return invitationRefused(c);
    await startSession(c, deps.db, cookies, sessionToken);
    deps.log.info("dashboard invitation followed");
    return c.redirect("/dashboard", 303);
  });
}

/** Ends the session: a signed-in POST. */
export function registerSignOut(app: Hono<DashboardEnv>, deps: DashboardDeps): void {
  const cookies = dashboardCookieSettings(deps);
  app.post("/sign-out", async (c) => {
    await endSession(c, deps.db, cookies);
    deps.log.info("dashboard signed out");
    return c.redirect("/dashboard/sign-in?signed_out=1", 303);
  });
}
