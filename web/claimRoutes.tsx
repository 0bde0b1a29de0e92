import { type Context, Hono } from "hono";
import { claimAccount, isClaimLinkUsable } from "../app/merchants/claim.ts";
import type { Db } from "../db/database.ts";
import { CLAIM_TOKEN_PATTERN } from "../domain/apiKeys.ts";
import type { Logger } from "../internal/logger.ts";
import {
  type DashboardDeps,
  dashboardCookieSettings,
  emailedLinkPage,
} from "./dashboard/routes/shared.tsx";
import { startSession } from "./dashboard/session.ts";
import { formPageHeaders as claimHeaders, isCrossSite } from "./formGuards.ts";
import { ClaimedPage, ClaimPage, ClaimRefusedPage } from "./pages/claimPage.tsx";

export type ClaimDeps = {
  db: Db;
  payUrl: string;
  log: Pick<Logger, "info" | "warn">;
} & Pick<DashboardDeps, "dashboard">;

/**
 * `{PAY_URL}/claim/{token}`, the link of a claim email. GET shows a button and changes nothing
 * (mail scanners and link previews open links: they must neither use the link nor see a key);
 * the button's POST uses the token once, claims the merchant, signs this browser in to the
 * dashboard (the link proved the address, as a sign-in link would: no second email) and shows a
 * new write key, once. An unknown, tampered, expired or used token: 410 with one page for all,
 * and no session.
 */
export function claimRoutes(deps: ClaimDeps): Hono {
  const app = new Hono();
  const cookies = dashboardCookieSettings(deps);
  const refused = (c: Context) => c.html(<ClaimRefusedPage />, 410);

  const claimPage = emailedLinkPage(
    (token) => isClaimLinkUsable(deps.db, token),
    ClaimPage,
    refused,
  );
  app.get("/claim/:token", (c) => {
    claimHeaders(c);
    return claimPage(c);
  });

  app.post("/claim/:token", async (c) => {
    claimHeaders(c);
    if (isCrossSite(c, deps.payUrl)) {
      deps.log.warn("claim refused: cross-site form post");
      return c.html(<ClaimRefusedPage />, 403);
    }
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    const requestId = (c.get("requestId" as never) as string | undefined) ?? null;
    const claimed = await claimAccount(deps.db, token, requestId);
    if (!claimed) return refused(c);
    await startSession(c, deps.db, cookies, claimed.sessionToken);
    deps.log.info("merchant claimed", { key_id: claimed.keyId });
    return c.html(<ClaimedPage apiKey={claimed.apiKey} email={claimed.email} />);
  });
  return app;
}
