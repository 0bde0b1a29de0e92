import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimedMerchant } from "../accounts/accounts.ts";
import { csrfOf, postForm, signInByFetch } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * Cross-site request forgery on the dashboard: a page on another site makes a signed-in
 * merchant's browser post a dashboard form (create an API key, say). The browser sends the
 * session cookie along; the post lacks the session's CSRF token, or names another origin.
 * Each is refused with a 403 page and nothing is written.
 */
describe("a forged dashboard form post is refused", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const keyNames = async (merchantId: string) =>
    (
      await stack.db
        .selectFrom("app.api_keys")
        .select("name")
        .where("merchant_id", "=", merchantId)
        .execute()
    ).map((row) => row.name);

  test("without the token, with another session's token, or from another origin: 403, no key", async () => {
    const merchant = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const { cookie } = await signInByFetch(stack, merchant.email);
    const { cookie: otherCookie } = await signInByFetch(stack, other.email);
    const csrf = await csrfOf(stack, cookie);
    const otherCsrf = await csrfOf(stack, otherCookie);
    expect(otherCsrf).not.toBe(csrf);

    const forgeries: [string, Record<string, string>, Record<string, string>][] = [
      ["no token", { name: "forged-1", scope: "write" }, {}],
      ["empty token", { name: "forged-2", scope: "write", _csrf: "" }, {}],
      ["another session's token", { name: "forged-3", scope: "write", _csrf: otherCsrf }, {}],
      [
        "right token, same-site (another port or subdomain)",
        { name: "forged-6", scope: "write", _csrf: csrf },
        { "sec-fetch-site": "same-site" },
      ],
      [
        "right token, cross-site",
        { name: "forged-4", scope: "write", _csrf: csrf },
        { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      ],
      [
        "right token, another Origin, no Sec-Fetch-Site (an older browser)",
        { name: "forged-5", scope: "write", _csrf: csrf },
        { origin: "https://evil.example", "sec-fetch-site": "" },
      ],
    ];
    for (const [what, fields, headers] of forgeries) {
      const response = await postForm(stack, "/dashboard/keys", fields, { cookie, ...headers });
      expect(response.status, what).toBe(403);
      const html = await response.text();
      expect(html, what).toContain("Request refused");
      expect(html, what).not.toMatch(/remit_sk_/);
    }
    // A forged sign-out does not sign the merchant out either.
    expect((await postForm(stack, "/dashboard/sign-out", {}, { cookie })).status).toBe(403);
    expect(
      (await stack.request("/dashboard", { headers: { cookie }, redirect: "manual" })).status,
    ).toBe(200);
    expect(await keyNames(merchant.merchantId)).toEqual(["test"]);

    // The control: the dashboard's own form, with its token, creates the key.
    const genuine = await postForm(
      stack,
      "/dashboard/keys",
      { name: "genuine", scope: "read", _csrf: csrf },
      { cookie },
    );
    expect(genuine.status).toBe(201);
    expect(await genuine.text()).toMatch(/remit_rk_/);
    expect(await keyNames(merchant.merchantId)).toEqual(["test", "genuine"]);
    // Audited as done in the dashboard.
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select(["actor", "action"])
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "=", "key.created")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe("dashboard");
  });

  test("the /api never takes the session cookie: a key is still needed", async () => {
    const merchant = await claimedMerchant(stack.db);
    const { cookie } = await signInByFetch(stack, merchant.email);
    const response = await stack.request("/api/keys", { headers: { cookie } });
    expect(response.status).toBe(401);
  });
});
