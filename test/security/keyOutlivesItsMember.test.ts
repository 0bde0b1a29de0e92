import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { teamMember } from "../members/team.ts";

/**
 * A key outliving its member: a developer leaves the team, but the key it made (in a CI
 * secret, a laptop) goes on working. Its key and its session must stop at once, on every
 * replica: keys and sessions are looked up through their member on every request.
 */
describe("a removed member's keys and sessions stop at once, on every replica", () => {
  let stack: TestStack;
  let second: TestProcess & { url: string };
  /** A request to the second replica. */
  const onSecond = (path: string, init: RequestInit = {}) => fetch(`${second.url}${path}`, init);
  beforeAll(async () => {
    stack = await startStack();
    second = await stack.startApi();
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  test("removed on one replica: 401 on the other at its next request", async () => {
    const owner = await claimedMerchant(stack.db);
    const developer = await teamMember(stack.db, owner, "developer");
    const made = await stack.request("/api/keys", {
      method: "POST",
      json: { name: "ci" },
      headers: bearer(developer.key),
    });
    expect(made.status).toBe(201);
    const { key: ciKey } = (await made.json()) as { key: string };
    for (const key of [developer.key, ciKey])
      expect((await onSecond("/api/invoices", { headers: bearer(key) })).status).toBe(200);
    const removed = await stack.request(`/api/members/${developer.memberId}`, {
      method: "DELETE",
      headers: bearer(owner.key),
    });
    expect(removed.status).toBe(200);
    for (const key of [developer.key, ciKey]) {
      expect((await onSecond("/api/invoices", { headers: bearer(key) })).status).toBe(401);
      expect((await stack.request("/api/invoices", { headers: bearer(key) })).status).toBe(401);
    }
    const page = await onSecond("/dashboard", {
      headers: { cookie: developer.cookie },
      redirect: "manual",
    });
    expect(page.status).toBe(303);
    // Even with its revocation undone by hand, the key of a removed member does nothing.
    await stack.db
      .updateTable("app.api_keys")
      .set({ revoked_at: null })
      .where("member_id", "=", developer.memberId)
      .execute();
    expect((await onSecond("/api/invoices", { headers: bearer(ciKey) })).status).toBe(401);
  });
});
