import type { Context, Hono } from "hono";
import type { MerchantActor } from "../../../app/actor.ts";
import type { CoreDeps } from "../../../app/deps.ts";
import type { ListPage } from "../../../app/lists/merchantLists.ts";
import { CLAIM_TOKEN_PATTERN } from "../../../domain/apiKeys.ts";
import type { ListKind } from "../../../domain/listCursor.ts";
import type { FormFields } from "../forms.ts";
import { PlainLayout } from "../layout.tsx";
import { ForbiddenPage, type SignInConfirmPage } from "../pages/signIn.tsx";
import { dashboardPageOf, pagerLinks } from "../paging.ts";
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

/**
 * A module of signed-in pages (routes/*.tsx): registers its routes on the signed-in router, with
 * the process's dependencies. routes/index.tsx registers each one in turn.
 */
export type SignedInRoutes = (app: SignedInApp, deps: DashboardDeps) => void;

/** Whether the session cookie is Secure (and `__Host-`): outside local mode, or over https. */
export const dashboardCookieSettings = (
  deps: Pick<DashboardDeps, "payUrl" | "dashboard">,
): CookieSettings => ({
  secure: deps.dashboard?.secureCookies ?? deps.payUrl.startsWith("https:"),
});

/**
 * An emailed link's GET: it only asks, with a button (mail scanners open links); a token of
 * another form, or one no longer usable, gets the refusal.
 */
export const emailedLinkPage =
  (
    isUsable: (token: string) => Promise<boolean>,
    Confirm: typeof SignInConfirmPage,
    refused: (c: Context) => Response | Promise<Response>,
  ) =>
  async (c: Context) => {
    const token = c.req.param("token") ?? "";
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    if (!(await isUsable(token))) return refused(c);
    return c.html(<Confirm />);
  };

export const forbidden = (c: Context) => c.html(<ForbiddenPage />, 403);

// Every signed-in POST's form, read once by the CSRF check (routes/index.tsx).
const forms = new WeakMap<Request, FormFields>();
export const rememberForm = (c: Context, form: FormFields) => forms.set(c.req.raw, form);
export const formOf = (c: Context<DashboardEnv>): FormFields => forms.get(c.req.raw) ?? {};

/** The page layout's view of the session: who is signed in, and the forms' CSRF token. */
export const session = (c: Context<DashboardEnv>) => {
  const s: SignedIn = c.get("signedIn");
  return { email: s.identity.memberEmail, csrf: s.csrf, role: s.identity.memberRole };
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

/**
 * A list filter's value from the query: one of `allowed`, or "" for none. An unknown value (typed
 * by hand) filters nothing, as an empty one.
 */
export const filterOf = (c: Context, name: string, allowed: readonly string[]): string => {
  const asked = c.req.query(name) ?? "";
  return allowed.includes(asked) ? asked : "";
};

/**
 * A signed-in list page's data: the page its query asks for (`after`, `newer`) read by `read` as
 * the signed-in merchant, the pager's links from the list's next cursor, and the layout's session.
 */
export async function readList<Row>(
  c: Context<DashboardEnv>,
  kind: ListKind,
  read: (
    actor: MerchantActor,
    page: ListPage,
  ) => Promise<{ rows: Row[]; nextCursor: string | null }>,
) {
  const { page, at } = dashboardPageOf(c, kind, PAGE_SIZE);
  const result = await read(actorOf(c), page);
  return { session: session(c), rows: result.rows, pager: pagerLinks(at, result.nextCursor) };
}
