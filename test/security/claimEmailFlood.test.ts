import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * The claim endpoint sends email to any address it is given, without authentication: a way to
 * flood a mailbox from Remit's domain, or to spend its sending reputation. Each address gets at
 * most 5 new links an hour whoever asks, then (so that a flood cannot lock the owner out,
 * test/security/signInLinkLockout.test.ts) the newest live link again at most once every 5
 * minutes; and each client IP has a budget of requests.
 */
describe("a flood of claim requests", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      worker: true,
      env: { TRUST_PROXY: "1", RATE_LIMIT_CLAIMS_PER_MIN: "3" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const claim = (email: string, client: string) =>
    stack.request("/api/merchants/claim", {
      method: "POST",
      json: { email },
      headers: { "X-Forwarded-For": client },
    });

  test("one mailbox gets at most 5 new links an hour and one re-send, however many addresses ask", async () => {
    const victim = `victim-${randomUUID()}@example.com`;
    for (let i = 0; i < 8; i++)
      expect((await claim(victim, `198.51.100.${i + 1}`)).status).toBe(202);
    await waitFor("the links sent", async () => {
      const pending = await stack.db.selectFrom("app.emails").select("status").execute();
      return pending.length > 0 && pending.every((e) => e.status === "sent");
    });
    const mail = (await stack.outbox()).filter((e) => e.to.includes(victim));
    // Five new links, then the newest of them once more; the last two requests send nothing.
    expect(mail).toHaveLength(6);
    const links = mail.map((e) => /\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/.exec(e.text ?? "")?.[1]);
    expect(new Set(links).size).toBe(5);
  });

  test("one address: its budget of requests, then 429", async () => {
    const client = "203.0.113.9";
    for (let i = 0; i < 3; i++)
      expect((await claim(`someone-${randomUUID()}@example.com`, client)).status).toBe(202);
    const refused = await claim(`someone-${randomUUID()}@example.com`, client);
    expect(refused.status).toBe(429);
  });
});
