import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimedMerchant } from "../accounts/accounts.ts";
import { signInByFetch } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * Session fixation: an attacker plants a session cookie in the victim's browser (a value of
 * their choosing, or their own signed-in session) and waits for the victim to sign in under
 * it. Signing in always makes a new token and ends whatever session the browser carried: the
 * planted value never becomes the victim's session.
 */
describe("signing in never keeps a planted session cookie", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const opens = async (cookie: string) =>
    (await stack.request("/dashboard", { headers: { cookie }, redirect: "manual" })).status;

  test("a value of the attacker's choosing", async () => {
    const victim = await claimedMerchant(stack.db);
    const planted = `remit_dashboard=${"A".repeat(43)}`;
    expect(await opens(planted)).toBe(303);
    const { cookie } = await signInByFetch(stack, victim.email, { cookie: planted });
    expect(cookie).not.toBe(planted);
    expect(await opens(cookie)).toBe(200);
    expect(await opens(planted)).toBe(303);
  });

  test("the attacker's own session: ended by the victim's sign-in, never upgraded to the victim's", async () => {
    const attacker = await claimedMerchant(stack.db);
    const victim = await claimedMerchant(stack.db);
    const { cookie: attackers } = await signInByFetch(stack, attacker.email);
    expect(await opens(attackers)).toBe(200);
    const { cookie: victims } = await signInByFetch(stack, victim.email, { cookie: attackers });
    expect(victims).not.toBe(attackers);
    expect(await opens(attackers)).toBe(303);
    const page = await (await stack.request("/dashboard", { headers: { cookie: victims } })).text();
    expect(page).toContain(victim.email);
    expect(page).not.toContain(attacker.email);
  });

  test("the cookie is HttpOnly, SameSite=Lax, Path=/; the database holds only its hash", async () => {
    const merchant = await claimedMerchant(stack.db);
    const asked = await stack.request("/dashboard/sign-in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `email=${encodeURIComponent(merchant.email)}`,
    });
    expect(asked.status).toBe(200);
    const { cookie, setCookie } = await signInByFetch(stack, merchant.email, { count: 2 });
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    // Local mode (http://localhost): not Secure, so not `__Host-` either (docs/dashboard.md).
    expect(cookie.startsWith("remit_dashboard=")).toBe(true);
    const value = cookie.split("=")[1] ?? "";
    const rows = await stack.db.selectFrom("app.dashboard_sessions").select("token_hash").execute();
    expect(rows.some((r) => r.token_hash === value)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });
});
