import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_PENDING_INVITATIONS } from "../../app/members/manageMembers.ts";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invite } from "../members/team.ts";

/**
 * An invitation flood: a stolen admin key (or session) inviting address after address would
 * make Remit email each of them, and every owner, without end. At most MAX_PENDING_INVITATIONS
 * wait at once: the next is a 409 `invitation_limit_reached` that creates no member and queues
 * no email; withdrawing one makes room again.
 */
describe("an invitation flood", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const emailsQueued = async () =>
    (await stack.db.selectFrom("app.emails").select("id").execute()).length;

  test(`stops at ${MAX_PENDING_INVITATIONS} pending invitations: the next is refused, invites nobody and emails nobody`, async () => {
    const team = await claimedMerchant(stack.db);
    const ids: string[] = [];
    for (let i = 0; i < MAX_PENDING_INVITATIONS; i++) {
      const response = await invite(
        stack,
        team.key,
        `pending-${i}-${crypto.randomUUID()}@example.com`,
        "support",
      );
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { id: string }).id);
    }
    const members = () =>
      stack.db
        .selectFrom("app.members")
        .select("id")
        .where("merchant_id", "=", team.merchantId)
        .execute();
    const [membersBefore, emailsBefore] = [(await members()).length, await emailsQueued()];

    const refused = await invite(stack, team.key, "one-more@example.com", "support");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "invitation_limit_reached",
    );
    expect((await members()).length).toBe(membersBefore);
    expect(await emailsQueued()).toBe(emailsBefore);

    // Withdrawing one makes room at once; the cap counts only links that still work.
    const withdrawn = await stack.request(`/api/members/${ids[0]}`, {
      method: "DELETE",
      headers: bearer(team.key),
    });
    expect(withdrawn.status).toBe(200);
    expect((await invite(stack, team.key, "one-more@example.com", "support")).status).toBe(201);
    expect((await invite(stack, team.key, "two-more@example.com", "support")).status).toBe(409);
    await stack.db
      .updateTable("app.member_invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("member_id", "=", ids[1] ?? "")
      .execute();
    expect((await invite(stack, team.key, "two-more@example.com", "support")).status).toBe(201);
  });
});
