import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { answer, bearer, claimedMerchant } from "./accounts.ts";

const CLAIM_LINK = /https?:\/\/[^\s"<]+\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/;

/** The key shown on the page after the button: the text of `<code id="api-key">`. */
const shownKey = (html: string) => /<code id="api-key">([^<]+)<\/code>/.exec(html)?.[1];

describe("claiming a merchant account by email (MERCHANT_SIGNUP=open)", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const requestClaim = async (email: string) =>
    answer(await stack.request("/api/merchants/claim", { method: "POST", json: { email } }));
  /** The claim link emailed to `email` (the newest, when several). */
  const linkSentTo = async (email: string, count = 1) => {
    const emails = await waitFor(
      `${count} claim email(s) to ${email}`,
      async () => {
        const found = (await stack.outbox()).filter(
          (e) => e.to.includes(email) && CLAIM_LINK.test(e.text ?? ""),
        );
        return found.length >= count && found;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    const texts = emails.map((e) => e.text ?? "");
    const match = CLAIM_LINK.exec(texts.at(-1) ?? "");
    return { url: match?.[0] ?? "", token: match?.[1] ?? "", emails };
  };
  const keyCount = async (email: string) =>
    Number(
      (
        await stack.db
          .selectFrom("app.api_keys as k")
          .innerJoin("app.merchants as m", "m.id", "k.merchant_id")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("m.email", "=", email)
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("request → email → link page → POST → key shown once → key works", async () => {
    const email = `owner-${randomUUID()}@example.com`;
    // The merchant exists already, made by anyone in open mode: its invoices need no key yet.
    expect(
      (
        await stack.request("/api/invoices", {
          method: "POST",
          json: invoiceRequest({ merchant_email: email }),
        })
      ).status,
    ).toBe(201);

    const accepted = await requestClaim(email);
    expect(accepted.status).toBe(202);
    expect(accepted.body.status).toBe("accepted");
    const { url, emails } = await linkSentTo(email);
    expect(emails[0]?.subject).toContain("confirm it's you");
    expect(url.startsWith(`${stack.api.url}/claim/`)).toBe(true);

    // A mail scanner opening the link (twice) creates nothing and sees no key.
    for (let i = 0; i < 2; i++) {
      const page = await stack.request(new URL(url).pathname);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain('<form method="post">');
      expect(html).not.toMatch(/remit_sk_/);
      expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
    }
    expect(await keyCount(email)).toBe(0);

    const posted = await stack.request(new URL(url).pathname, { method: "POST" });
    expect(posted.status).toBe(200);
    expect(posted.headers.get("cache-control")).toBe("no-store");
    const key = shownKey(await posted.text()) ?? "";
    expect(key).toMatch(/^remit_sk_/);
    expect(await keyCount(email)).toBe(1);

    // The account is claimed: without the key, its email no longer creates anything.
    const anonymous = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: email }),
    });
    expect(anonymous.status).toBe(401);
    const withKey = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({ merchant_email: email }),
        headers: bearer(key),
      }),
    );
    // Its invoice numbers carry on from before the claim.
    expect([withKey.status, withKey.body.invoice_number]).toEqual([201, "INV-0002"]);

    // Replayed: the link worked once.
    const replay = await stack.request(new URL(url).pathname, { method: "POST" });
    expect(replay.status).toBe(410);
    expect(shownKey(await replay.text())).toBeUndefined();
    expect((await stack.request(new URL(url).pathname)).status).toBe(410);
    expect(await keyCount(email)).toBe(1);
  });

  test("an expired or tampered link is refused, and creates nothing", async () => {
    const email = `late-${randomUUID()}@example.com`;
    await requestClaim(email);
    const { token } = await linkSentTo(email);
    const tampered = `${token.slice(0, 20)}${token[20] === "a" ? "b" : "a"}${token.slice(21)}`;
    for (const path of [`/claim/${tampered}`, "/claim/short", `/claim/${token}x`]) {
      expect((await stack.request(path)).status).toBe(410);
      expect((await stack.request(path, { method: "POST" })).status).toBe(410);
    }
    // 31 minutes later (moved in the database: the clock is the database's).
    await stack.db
      .updateTable("app.claim_tokens")
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where("email", "=", email)
      .execute();
    expect((await stack.request(`/claim/${token}`)).status).toBe(410);
    expect((await stack.request(`/claim/${token}`, { method: "POST" })).status).toBe(410);
    expect(await keyCount(email)).toBe(0);
    const merchant = await stack.db
      .selectFrom("app.merchants")
      .select("claimed_at")
      .where("email", "=", email)
      .executeTakeFirst();
    expect(merchant?.claimed_at ?? null).toBeNull();
  });

  test("a form posted from another site (CSRF) is refused", async () => {
    const email = `csrf-${randomUUID()}@example.com`;
    await requestClaim(email);
    const { token } = await linkSentTo(email);
    for (const headers of [
      { origin: "https://evil.example" } as Record<string, string>,
      { "sec-fetch-site": "cross-site" },
    ]) {
      const refused = await stack.request(`/claim/${token}`, { method: "POST", headers });
      expect(refused.status).toBe(403);
      expect(shownKey(await refused.text())).toBeUndefined();
    }
    expect(await keyCount(email)).toBe(0);
    // The link still works from its own page.
    const own = await stack.request(`/claim/${token}`, {
      method: "POST",
      headers: { origin: new URL(stack.api.url).origin, "sec-fetch-site": "same-origin" },
    });
    expect(shownKey(await own.text())).toMatch(/^remit_sk_/);
  });

  test("always 202, never an oracle; a claimed account can claim again for a new key", async () => {
    const merchant = await claimedMerchant(stack.db);
    const fresh = `fresh-${randomUUID()}@example.com`;
    const answers = [await requestClaim(merchant.email), await requestClaim(fresh)];
    expect(answers[0]).toEqual(answers[1]);
    await linkSentTo(merchant.email);
    const invalid = await requestClaim("not an email");
    expect(invalid.status).toBe(400);
  });
});

describe("MERCHANT_SIGNUP=closed", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { MERCHANT_SIGNUP: "closed" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("only existing accounts get a link; the answer is the same 202 for all", async () => {
    const merchant = await claimedMerchant(stack.db);
    const stranger = `stranger-${randomUUID()}@example.com`;
    const [known, unknown] = [
      await answer(
        await stack.request("/api/merchants/claim", {
          method: "POST",
          json: { email: stranger },
        }),
      ),
      await answer(
        await stack.request("/api/merchants/claim", {
          method: "POST",
          json: { email: merchant.email },
        }),
      ),
    ];
    expect(known).toEqual(unknown);
    expect(known.status).toBe(202);
    await stack.waitForEmail((e) => e.to.includes(merchant.email));
    // The worker is idle once the known account's email went out: none was queued for the stranger.
    const queued = await stack.db
      .selectFrom("app.emails")
      .select("recipient")
      .where("kind", "=", "claim_link")
      .execute();
    expect(queued.map((e) => e.recipient)).toEqual([merchant.email]);
  });
});
