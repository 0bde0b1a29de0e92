import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CapturedEmail } from "../../api/dev/outbox.ts";
import { waitFor } from "../../internal/process.ts";
import { claimedMerchant } from "../accounts/accounts.ts";
import { SIGN_IN_LINK, sessionCookieOf } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

const CLAIM_LINK = /\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/;

/**
 * The attack: the cap on one-time links per address (5 an hour) counted everyone's requests,
 * so a stranger asking 5 times for someone else's claim or sign-in link spent the owner's
 * links: the owner's own request then sent nothing, for an hour, again and again. Now one
 * client spends only its own share of new links (3 per address), and past the address's cap
 * the newest live link is emailed again (at most once every 5 minutes), so the owner always
 * finds a working link in the inbox and the mail of a flood stays bounded.
 */
describe("a stranger spending someone's one-time links", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The per-IP request budget out of the way: the attacker's requests all reach the cap.
    stack = await startStack({
      worker: true,
      env: { TRUST_PROXY: "1", RATE_LIMIT_CLAIMS_PER_MIN: "1000" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const from = (client: string) => ({ "X-Forwarded-For": client });
  const claim = (email: string, client: string) =>
    stack.request("/api/merchants/claim", {
      method: "POST",
      json: { email },
      headers: from(client),
    });
  const askSignIn = (email: string, client: string) =>
    stack.request("/dashboard/sign-in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...from(client) },
      body: new URLSearchParams({ email }).toString(),
    });
  /** Every email to `email`, once all queued emails are sent. */
  const mailTo = async (email: string): Promise<CapturedEmail[]> => {
    await waitFor("the emails sent", async () => {
      const rows = await stack.db.selectFrom("app.emails").select("status").execute();
      return rows.every((e) => e.status === "sent");
    });
    return (await stack.outbox()).filter((e) => e.to.includes(email));
  };
  const mailCount = async (email: string, count: number) =>
    waitFor(`${count} emails to ${email}`, async () => {
      const mail = await mailTo(email);
      return mail.length >= count && mail;
    });

  test("claim: one client floods the address; the owner's request, from elsewhere, brings a link that works", async () => {
    const victim = `victim-${randomUUID()}@example.com`;
    for (let i = 0; i < 12; i++) expect((await claim(victim, "203.0.113.66")).status).toBe(202);
    const flooded = await mailTo(victim);
    // Three new links, then one re-send of the newest: the rest withheld.
    expect(flooded).toHaveLength(4);

    expect((await claim(victim, "198.51.100.20")).status).toBe(202);
    const after = await mailCount(victim, 5);
    const mine = after.find((e) => !flooded.some((f) => f.id === e.id));
    const token = CLAIM_LINK.exec(mine?.text ?? "")?.[1] ?? "";
    expect(token).toHaveLength(43);
    expect((await stack.request(`/claim/${token}`)).status).toBe(200);
    const claimed = await stack.request(`/claim/${token}`, { method: "POST" });
    expect(claimed.status).toBe(200);
    expect(await claimed.text()).toMatch(/<code id="api-key">remit_sk_/);
    expect(await mailTo(victim)).toHaveLength(5);
  });

  test("claim: many clients exhaust the address's cap; the owner gets the newest live link again, once", async () => {
    const victim = `victim-${randomUUID()}@example.com`;
    for (let i = 0; i < 5; i++)
      expect((await claim(victim, `203.0.113.${100 + i}`)).status).toBe(202);
    const flooded = await mailTo(victim);
    expect(flooded).toHaveLength(5);

    expect((await claim(victim, "198.51.100.21")).status).toBe(202);
    const after = await mailCount(victim, 6);
    const resent = after.find((e) => !flooded.some((f) => f.id === e.id));
    const token = CLAIM_LINK.exec(resent?.text ?? "")?.[1] ?? "";
    // The newest of the links already sent, which the attacker never saw: it works.
    expect(flooded.map((e) => CLAIM_LINK.exec(e.text ?? "")?.[1])).toContain(token);
    const claimed = await stack.request(`/claim/${token}`, { method: "POST" });
    expect(claimed.status).toBe(200);

    // The flood goes on, from everywhere: nothing more for minutes.
    for (let i = 0; i < 10; i++) expect((await claim(victim, `192.0.2.${i + 1}`)).status).toBe(202);
    expect(await mailTo(victim)).toHaveLength(6);
    // A used link's sealed copy is gone: the database keeps only hashes of it.
    const rows = await stack.db
      .selectFrom("app.claim_tokens")
      .select(["sealed", "used_at"])
      .where("email", "=", victim)
      .execute();
    for (const row of rows.filter((r) => r.used_at)) expect(row.sealed).toBeNull();
  });

  test("dashboard sign-in: a flood from one client leaves the owner a link that signs in", async () => {
    const merchant = await claimedMerchant(stack.db);
    for (let i = 0; i < 12; i++)
      expect((await askSignIn(merchant.email, "203.0.113.77")).status).toBe(200);
    const flooded = await mailTo(merchant.email);
    expect(flooded).toHaveLength(4);

    expect((await askSignIn(merchant.email, "198.51.100.22")).status).toBe(200);
    const after = await mailCount(merchant.email, 5);
    const mine = after.find((e) => !flooded.some((f) => f.id === e.id));
    const link = SIGN_IN_LINK.exec(mine?.text ?? "")?.[0] ?? "";
    expect(link).not.toBe("");
    const signedIn = await stack.request(new URL(link).pathname, {
      method: "POST",
      redirect: "manual",
    });
    expect(signedIn.status).toBe(303);
    const cookie = sessionCookieOf(signedIn);
    expect(cookie).toBeDefined();
    expect(
      (await stack.request("/dashboard", { headers: { cookie: cookie ?? "" }, redirect: "manual" }))
        .status,
    ).toBe(200);
  });
});
