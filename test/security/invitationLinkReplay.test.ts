import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { postForm } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { follow, invitationPath, invite } from "../members/team.ts";

/**
 * Replaying an invitation link: whoever gets hold of a used one (a forwarded email, a proxy log,
 * the browser history) gets no session from it; a withdrawn invitation's link works no more;
 * opening a link (a mail scanner) uses nothing; the token is stored only as a hash.
 */
describe("an invitation link works once", () => {
  let stack: TestStack;
  let owner: Merchant;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    owner = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const sessionsOf = async (email: string) =>
    (
      await stack.db
        .selectFrom("app.dashboard_sessions as s")
        .innerJoin("app.members as m", "m.id", "s.member_id")
        .select("s.id")
        .where("m.email", "=", email)
        .execute()
    ).length;

  test("opened twice, followed once; the replay is a 410 and starts no session", async () => {
    const email = `replay-${crypto.randomUUID()}@example.com`;
    expect((await invite(stack, owner.key, email, "developer")).status).toBe(201);
    const path = await invitationPath(stack, email);
    for (let i = 0; i < 2; i++) expect((await stack.request(path)).status).toBe(200);
    expect(await follow(stack, path)).toBeDefined();
    expect(await follow(stack, path)).toBeUndefined();
    expect((await stack.request(path)).status).toBe(410);
    expect(await sessionsOf(email)).toBe(1);
    // At rest: only the token's hash.
    const token = path.split("/").at(-1) ?? "";
    const stored = await stack.db
      .selectFrom("app.member_invitations")
      .select("token_hash")
      .where("token_hash", "=", token)
      .execute();
    expect(stored).toEqual([]);
  });

  test("two concurrent follows: exactly one session", async () => {
    const email = `race-${crypto.randomUUID()}@example.com`;
    expect((await invite(stack, owner.key, email, "support")).status).toBe(201);
    const path = await invitationPath(stack, email);
    const answers = await Promise.all([postForm(stack, path, {}), postForm(stack, path, {})]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 410]);
    expect(await sessionsOf(email)).toBe(1);
  });

  test("a withdrawn invitation's link no longer works", async () => {
    const email = `withdrawn-${crypto.randomUUID()}@example.com`;
    const invited = await invite(stack, owner.key, email, "accountant");
    const { id } = (await invited.json()) as { id: string };
    const path = await invitationPath(stack, email);
    const removed = await stack.request(`/api/members/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(removed.status).toBe(200);
    expect((await stack.request(path)).status).toBe(410);
    expect(await follow(stack, path)).toBeUndefined();
    expect(await sessionsOf(email)).toBe(0);
  });
});
