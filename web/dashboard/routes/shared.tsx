import type { Context, Hono } from "hono";
import type { MerchantActor } from "../../../app/actor.ts";
import type { CoreDeps } from "../../../app/deps.ts";
import type { FormFields } from "../forms.ts";
import { PlainLayout } from "../layout.tsx";
import { ForbiddenPage } from "../pages/signIn.tsx";
import type { CookieSettings, DashboardEnv, SignedIn } from "../session.ts";

/** Rows per page of the dashboard's lists. */
export const PAGE_SIZE = 25;

/** What the dashboard needs from its process: the application's, and its cookies' setting. */
export type DashboardDeps = CoreDeps & {
  /** Secure (and `__Host-`) session cookies; default: when PAY_URL is https. */
  dashboard?: { secureCookies: boolean };
};

/** The signed-in pages' router: every route below /dashboard once a session is checked. */
export type SignedInApp = Hono<DashboardEnv>;

/** Whether the session cookie is Secure (and `__Host-`): outside local mode, or over https. */
export const dashboardCookieSettings = (
  deps: Pick<DashboardDeps, "payUrl" | "dashboard">,
): CookieSettings => ({
  secure: deps.dashboard?.secureCookies ?? deps.payUrl.startsWith("https:"),
});

export const forbidden = (c: Context) => c.html(<ForbiddenPage />, 403);

// Every signed-in POST's form, read once by the CSRF check (routes/index.tsx).
const forms = new WeakMap<Request, FormFields>();
export const rememberForm = (c: Context, form: FormFields) => forms.set(c.req.raw, form);
export const formOf = (c: Context<DashboardEnv>): FormFields => forms.get(c.req.raw) ?? {};

/** The page layout's view of the session: who is signed in, and the forms' CSRF token. */
export const session = (c: Context<DashboardEnv>) => {
  const s: SignedIn = c.get("signedIn");
  return { email: s.identity.merchantEmail, csrf: s.csrf };
};

/** The signed-in merchant acting in this request, as every use case of app/ takes it. */
export const actorOf = (c: Context<DashboardEnv>): MerchantActor => ({
  identity: c.get("signedIn").identity,
  requestId: c.get("requestId") ?? null,
});

export const notFound = (c: Context<DashboardEnv>, what: string) =>
  c.html(
    <PlainLayout title="Not found">
      <p>
        You have no {what} at this address. <a href="/dashboard">Back to the dashboard</a>.
      </p>
    </PlainLayout>,
    404,
  );
