import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { formPageHeaders, isCrossSite } from "../../formGuards.ts";
import { DASHBOARD_CSS, DASHBOARD_JS, dashboardCss, dashboardJs } from "../assets.ts";
import { textFields } from "../forms.ts";
import { ForbiddenPage } from "../pages/signIn.tsx";
import { type DashboardEnv, hasValidCsrfToken, requireRole, requireSession } from "../session.ts";
import { registerAudit } from "./audit.tsx";
import { registerCreditNotes } from "./creditNotes.tsx";
import { registerEvents } from "./events.tsx";
import { registerExports } from "./exports.tsx";
import { registerInvoice } from "./invoice.tsx";
import { registerInvoices } from "./invoices.tsx";
import { ISSUING_FORMS } from "./issuingLimit.tsx";
import { registerKeys } from "./keys.tsx";
import { registerLinks } from "./links.tsx";
import { registerMembers } from "./members.tsx";
import { registerNotificationEmail } from "./notificationEmail.tsx";
import { registerOverview } from "./overview.tsx";
import { registerPayments } from "./payments.tsx";
import { registerReceivables } from "./receivables.tsx";
import { registerReminders } from "./reminders.tsx";
import { registerSchedules } from "./schedules.tsx";
import { registerSettings } from "./settings.tsx";
import {
  type DashboardDeps,
  dashboardCookieSettings,
  forbidden,
  rememberForm,
  type SignedInRoutes,
} from "./shared.tsx";
import { registerSignIn, registerSignOut, type SignInGuards } from "./signIn.tsx";
import { registerWebhooks } from "./webhooks.tsx";

export { type DashboardDeps, dashboardCookieSettings } from "./shared.tsx";
export type { SignInGuards } from "./signIn.tsx";

/** A dashboard form is small: anything larger is refused before it is read. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * The merchant's dashboard at `{PAY_URL}/dashboard` (docs/dashboard.md): sign-in by a one-time
 * email link, a session cookie, CSRF-checked forms; a route file per page (this folder), each
 * calling the application's use cases and read models (app/) as the API's routes do (same
 * validation, same audit log, actor `dashboard`). The API itself never accepts the cookie: /api
 * stays key-only, out of CSRF's reach.
 */
export function dashboardRoutes(
  deps: DashboardDeps,
  guards: SignInGuards & {
    /** Charged by the forms that issue invoices or move money (./issuingLimit.tsx); none: unlimited. */
    issuing?: MiddlewareHandler<DashboardEnv> | null;
  },
): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  const cookies = dashboardCookieSettings(deps);
  const asset = (body: string, type: string) => (c: Context) => {
    c.header("Content-Type", type);
    c.header("Cache-Control", "public, max-age=300");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(body);
  };
  app.get(DASHBOARD_CSS, asset(dashboardCss, "text/css; charset=utf-8"));
  app.get(DASHBOARD_JS, asset(dashboardJs, "text/javascript; charset=utf-8"));

  app.use("/dashboard", async (c, next) => {
    formPageHeaders(c);
    await next();
  });
  app.use("/dashboard/*", async (c, next) => {
    formPageHeaders(c);
    await next();
  });
  app.on(
    "POST",
    ["/dashboard/*"],
    bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.html(<ForbiddenPage />, 413) }),
    async (c, next) => {
      // A form posted from another site: refused before anything else (login CSRF included).
      if (isCrossSite(c, deps.payUrl)) {
        deps.log.warn("dashboard refused a cross-site form post");
        return forbidden(c);
      }
      await next();
    },
  );

  // Outside a session: sign-in, and a new notification email's link (followed from that mailbox).
  registerSignIn(app, deps, guards);
  registerNotificationEmail(app, deps);

  // Signed in.
  const signedIn = new Hono<DashboardEnv>();
  signedIn.use("*", requireSession(deps.db, cookies));
  signedIn.use("*", requireRole(forbidden));
  // Every signed-in POST carries its session's CSRF token; the form is read once, here.
  signedIn.on("POST", "*", async (c, next) => {
    const form = textFields(await c.req.parseBody());
    if (!hasValidCsrfToken(c.get("signedIn"), form)) {
      deps.log.warn("dashboard refused a form post without its CSRF token");
      return forbidden(c);
    }
    rememberForm(c, form);
    await next();
  });
  const issuing = guards.issuing;
  if (issuing) for (const path of ISSUING_FORMS) signedIn.post(path, issuing);
  const signedInRoutes: SignedInRoutes[] = [
    registerSignOut,
    registerOverview,
    registerInvoices,
    registerInvoice,
    registerCreditNotes,
    registerLinks,
    registerPayments,
    registerKeys,
    registerMembers,
    registerAudit,
    registerSettings,
    registerExports,
    registerWebhooks,
    registerEvents,
    registerSchedules,
    registerReceivables,
    registerReminders,
  ];
  for (const register of signedInRoutes) register(signedIn, deps);

  app.route("/dashboard", signedIn);
  return app;
}
