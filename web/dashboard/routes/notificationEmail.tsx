import type { Context, Hono } from "hono";
import { isNotificationEmailLinkUsable } from "../../../app/dashboard/sessions.ts";
import { confirmNotificationEmailLink } from "../../../app/merchants/settings.ts";
import { CLAIM_TOKEN_PATTERN } from "../../../domain/apiKeys.ts";
import {
  NotificationEmailConfirmedPage,
  NotificationEmailConfirmPage,
  NotificationEmailRefusedPage,
} from "../pages/signIn.tsx";
import type { DashboardEnv } from "../session.ts";
import { type DashboardDeps, emailedLinkPage } from "./shared.tsx";

/**
 * A new notification email's link, outside a session (it is followed from that mailbox). The
 * GET only asks (mail scanners open links); the button's POST confirms, once.
 */
export function registerNotificationEmail(app: Hono<DashboardEnv>, deps: DashboardDeps): void {
  const refused = (c: Context) => c.html(<NotificationEmailRefusedPage />, 410);
  app.get(
    "/dashboard/notification-email/:token",
    emailedLinkPage(
      (token) => isNotificationEmailLinkUsable(deps.db, token),
      NotificationEmailConfirmPage,
      refused,
    ),
  );
  app.post("/dashboard/notification-email/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    const address = await confirmNotificationEmailLink(deps, token, c.get("requestId") ?? null);
    if (!address) return refused(c);
    deps.log.info("dashboard notification email confirmed");
    return c.html(<NotificationEmailConfirmedPage address={address} />);
  });
}
