import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { claimedMerchant } from "../accounts/accounts.ts";
import { postForm, sessionCookieOf, signInByFetch } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

const CLAIM_TOKEN = /\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/;

/**
 * A claim link now signs its merchant in (issue 42: one email, not two), so it is a sign-in
 * secret too: whoever holds a used one (a forwarded email, a proxy log, the browser history)
 * must get no session from it; opening it (mail scanners do) must sign nobody in; a page on
 * another site must not post it into a victim's browser; a session cookie planted before the
 * claim must not become the merchant's; and the database holds neither the link's token nor the
 * session's, only their hashes.
 */
describe("a claim link signs in once, and only by its own button", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Asks for a claim link for a new address and answers its path and token. */
  async function claimLink(email: string): Promise<{ path: string; token: string }> {
    const asked = await stack.request("/api/merchants/claim", { method: "POST", json: { email } });
    expect(asked.status).toBe(202);
    const sent = await waitFor("the claim email", async () =>
      (await stack.outbox()).find((e) => e.to.includes(email) && CLAIM_TOKEN.test(e.text ?? "")),
    );
    const token = CLAIM_TOKEN.exec(sent.text ?? "")?.[1] ?? "";
    return { path: `/claim/${token}`, token };
  }

  const sessionsOf = async (email: string) =>
    stack.db
      .selectFrom("app.dashboard_sessions as s")
      .innerJoin("app.merchants as m", "m.id", "s.merchant_id")
      .select(["s.token_hash"])
      .where("m.email", "=", email)
      .execute();

  const opens = async (cookie: string) =>
    (await stack.request("/dashboard", { headers: { cookie }, redirect: "manual" })).status;

  test("opening the link signs nobody in; its button does, once; a replay is 410 with no session", async () => {
    const email = `claim-${randomUUID().slice(0, 8)}@example.com`;
    const { path } = await claimLink(email);
    for (let i = 0; i < 2; i++) {
      const opened = await stack.request(path);
      expect(opened.status).toBe(200);
      expect(opened.headers.getSetCookie()).toEqual([]);
    }
    expect(await sessionsOf(email)).toHaveLength(0);

    const claimed = await postForm(stack, path, {});
    expect(claimed.status).toBe(200);
    const cookie = sessionCookieOf(claimed);
    expect(cookie).toBeDefined();
    const setCookie = claimed.headers.getSetCookie().find((line) => line.startsWith(`${cookie};`));
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    // The session is the merchant's dashboard.
    const dashboard = await stack.request("/dashboard", { headers: { cookie: cookie ?? "" } });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(email);

    const replay = await postForm(stack, path, {});
    expect(replay.status).toBe(410);
    expect(sessionCookieOf(replay)).toBeUndefined();
    expect((await stack.request(path)).status).toBe(410);
    expect(await sessionsOf(email)).toHaveLength(1);
  });

  test("posted from another site: refused, no key, no session, the link still unused", async () => {
    const email = `claim-${randomUUID().slice(0, 8)}@example.com`;
    const { path } = await claimLink(email);
    const forged = await postForm(
      stack,
      path,
      {},
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(forged.status).toBe(403);
    expect(sessionCookieOf(forged)).toBeUndefined();
    expect(await sessionsOf(email)).toHaveLength(0);
    // The merchant's own press still works.
    expect((await postForm(stack, path, {})).status).toBe(200);
  });

  test("a planted session cookie ends; the claim makes a new one, never the planted one", async () => {
    const attacker = await claimedMerchant(stack.db);
    const { cookie: attackers } = await signInByFetch(stack, attacker.email);
    expect(await opens(attackers)).toBe(200);
    const email = `claim-${randomUUID().slice(0, 8)}@example.com`;
    const { path } = await claimLink(email);
    const claimed = await postForm(stack, path, {}, { cookie: attackers });
    expect(claimed.status).toBe(200);
    const victims = sessionCookieOf(claimed) ?? "";
    expect(victims).not.toBe("");
    expect(victims).not.toBe(attackers);
    expect(await opens(attackers)).toBe(303);
    const page = await (await stack.request("/dashboard", { headers: { cookie: victims } })).text();
    expect(page).toContain(email);
    expect(page).not.toContain(attacker.email);

    const planted = `remit_dashboard=${"A".repeat(43)}`;
    const other = `claim-${randomUUID().slice(0, 8)}@example.com`;
    const second = await postForm(stack, (await claimLink(other)).path, {}, { cookie: planted });
    expect(sessionCookieOf(second)).not.toBe(planted);
    expect(await opens(planted)).toBe(303);
  });

  test("at rest: the link's token and the session's are stored only as hashes", async () => {
    const email = `claim-${randomUUID().slice(0, 8)}@example.com`;
    const { path, token } = await claimLink(email);
    const claimed = await postForm(stack, path, {});
    const session = (sessionCookieOf(claimed) ?? "").split("=")[1] ?? "";
    expect(session).not.toBe("");
    const links = await stack.db
      .selectFrom("app.claim_tokens")
      .selectAll()
      .where("email", "=", email)
      .execute();
    expect(links).toHaveLength(1);
    // Used: its sealed copy (kept only to email it again) is gone, and nothing holds the token.
    expect(links[0]?.used_at).not.toBeNull();
    expect(links[0]?.sealed).toBeNull();
    expect(JSON.stringify(links)).not.toContain(token);
    const sessions = await sessionsOf(email);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0]?.token_hash).not.toBe(session);
  });
});
