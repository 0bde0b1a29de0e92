import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { claimedMerchant } from "../accounts/accounts.ts";
import {
  postForm,
  SIGN_IN_LINK,
  sessionCookieOf,
  signInByFetch,
  waitForSignInLink,
} from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * Replaying a sign-in link: whoever gets hold of a used link (a forwarded email, a proxy log,
 * the browser history) must not get a session from it. Links work once, for 30 minutes; a
 * mail scanner opening one uses nothing; a claim link is no sign-in link.
 */
describe("a dashboard sign-in link works once", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const sessionCount = async (merchantId: string) =>
    (
      await stack.db
        .selectFrom("app.dashboard_sessions")
        .select("id")
        .where("merchant_id", "=", merchantId)
        .execute()
    ).length;

  test("opening the link twice uses nothing; the second POST is refused (410) and makes no session", async () => {
    const merchant = await claimedMerchant(stack.db);
    await postForm(stack, "/dashboard/sign-in", { email: merchant.email });
    const link = new URL(await waitForSignInLink(stack, merchant.email)).pathname;
    for (let i = 0; i < 2; i++) {
      const page = await stack.request(link);
      expect(page.status).toBe(200);
      expect(page.headers.getSetCookie()).toEqual([]);
    }
    const first = await postForm(stack, link, {});
    expect(first.status).toBe(303);
    expect(sessionCookieOf(first)).toBeDefined();
    const replay = await postForm(stack, link, {});
    expect(replay.status).toBe(410);
    expect(sessionCookieOf(replay)).toBeUndefined();
    expect((await stack.request(link)).status).toBe(410);
    expect(await sessionCount(merchant.merchantId)).toBe(1);
  });

  test("a tampered or unknown token, or a claim link's token: 410", async () => {
    const merchant = await claimedMerchant(stack.db);
    const { token } = await signInByFetch(stack, merchant.email);
    const tampered = `${token.slice(0, -1)}${token.endsWith("a") ? "b" : "a"}`;
    for (const bad of [tampered, "short", `${token}x`]) {
      expect((await postForm(stack, `/dashboard/sign-in/${bad}`, {})).status).toBe(410);
    }
    // A claim link (another purpose) is not a sign-in link.
    await stack.request("/api/merchants/claim", {
      method: "POST",
      json: { email: merchant.email },
    });
    const claim = await waitFor("the claim email", async () =>
      (await stack.outbox()).find(
        (e) => e.to.includes(merchant.email) && /\/claim\//.test(e.text ?? ""),
      ),
    );
    const claimToken = /\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/.exec(claim.text ?? "")?.[1] ?? "";
    expect(claimToken).not.toBe("");
    expect((await stack.request(`/dashboard/sign-in/${claimToken}`)).status).toBe(410);
    expect((await postForm(stack, `/dashboard/sign-in/${claimToken}`, {})).status).toBe(410);
  });

  test("an address without an account gets the same answer and no email; a claimed one is capped per client", async () => {
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    const merchant = await claimedMerchant(stack.db);
    const answers = await Promise.all(
      [unknown, merchant.email].map(async (email) =>
        (await postForm(stack, "/dashboard/sign-in", { email })).text(),
      ),
    );
    expect(answers[0]).toBe(answers[1]);
    for (let i = 0; i < 6; i++)
      await postForm(stack, "/dashboard/sign-in", { email: merchant.email });
    // Seven requests from one client: its 3 new links, then the newest once more (more only
    // after 5 minutes; other clients still get their own: signInLinkLockout.test.ts).
    await waitForSignInLink(stack, merchant.email, 4);
    const rows = await stack.db
      .selectFrom("app.claim_tokens")
      .select("email")
      .where("email", "in", [unknown, merchant.email])
      .where("purpose", "=", "dashboard_sign_in")
      .execute();
    expect(rows.filter((r) => r.email === unknown)).toHaveLength(0);
    expect(rows.filter((r) => r.email === merchant.email)).toHaveLength(3);
    await waitFor("the emails sent", async () =>
      (await stack.db.selectFrom("app.emails").select("status").execute()).every(
        (e) => e.status === "sent",
      ),
    );
    const sent = (await stack.outbox()).filter(
      (e) => e.to.includes(merchant.email) && SIGN_IN_LINK.test(e.text ?? ""),
    );
    expect(sent).toHaveLength(4);
  });
});
