import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { answer, bearer } from "../accounts/accounts.ts";
import { runCli } from "../cli/run.ts";
import { dumpAsText } from "../helpers/database.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * A database dump or backup that leaks must not hand out merchants' keys or live claim links:
 * keys are stored as SHA-256 hashes, claim tokens too, and the copies of a claim link that must
 * be opened again (the worker's, erased once sent; the one kept for re-sending the link, erased
 * once used or expired) are sealed under WEBHOOK_SECRET_KEY, which no dump holds. Nor do keys
 * or links reach the logs.
 */
describe("API keys in a database dump", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Debug: every request's path is logged, claim links' included (redacted).
    stack = await startStack({ worker: true, env: { LOG_LEVEL: "debug" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("no key and no claim token appears in any table, in any form, nor in the logs", async () => {
    const email = `dump-${randomUUID()}@example.com`;
    // A key by the operator's command, one by the claim flow, one through the API.
    const added = await runCli(["merchants", "add", "--email", email], {
      env: { DATABASE_URL: stack.database.url },
    });
    const operatorKey = added.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(operatorKey).toMatch(/^remit_sk_/);

    await stack.request("/api/merchants/claim", { method: "POST", json: { email } });
    const message = await stack.waitForEmail(
      (e) => e.to.includes(email) && /\/claim\//.test(e.text ?? ""),
    );
    const token = /\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/.exec(message.text ?? "")?.[1] ?? "";
    // An unused second link, still valid while the dump is taken.
    const posted = await stack.request(`/claim/${token}`, { method: "POST" });
    const claimedKey = /<code id="api-key">([^<]+)<\/code>/.exec(await posted.text())?.[1] ?? "";
    expect(claimedKey).toMatch(/^remit_sk_/);
    const readKey = (
      await answer(
        await stack.request("/api/keys", {
          method: "POST",
          json: { name: "reader", scope: "read" },
          headers: bearer(operatorKey),
        }),
      )
    ).body.key as string;
    await stack.request("/api/merchants/claim", { method: "POST", json: { email } });
    const second = await waitFor("a second claim email", async () => {
      const all = (await stack.outbox()).filter(
        (e) => e.to.includes(email) && /\/claim\//.test(e.text ?? ""),
      );
      return all.length === 2 && all.find((e) => e.id !== message.id);
    });
    const liveToken = /\/claim\/([1-9A-HJ-NP-Za-km-z]{43})/.exec(second.text ?? "")?.[1] ?? "";
    expect(liveToken).toHaveLength(43);

    // The live link's copy for re-sending is there, sealed; the used one's is erased.
    const kept = await stack.db
      .selectFrom("app.claim_tokens")
      .select(["sealed", "used_at"])
      .where("email", "=", email)
      .execute();
    expect(kept.find((row) => row.used_at)?.sealed).toBeNull();
    expect(kept.find((row) => !row.used_at)?.sealed).toMatch(/^enc:v1:/);
    const dump = await dumpAsText(stack.database.url);
    expect(dump).toContain("app.api_keys");
    for (const secret of [operatorKey, claimedKey, readKey, token, liveToken]) {
      expect(dump).not.toContain(secret);
      // Not even its random part without the prefix, nor its last 30 characters.
      expect(dump).not.toContain(secret.replace(/^remit_[sr]k_/, ""));
      expect(dump).not.toContain(secret.slice(-30));
      expect(stack.api.output()).not.toContain(secret.slice(-30));
      expect(stack.worker?.output() ?? "").not.toContain(secret.slice(-30));
    }
    // The claim requests were logged, their links redacted.
    expect(stack.api.output()).toContain("/claim/[redacted]");
    // Every key works nonetheless: they are found by their hash.
    for (const key of [operatorKey, claimedKey, readKey])
      expect((await stack.request("/api/keys", { headers: bearer(key) })).status).toBe(200);
  });
});
