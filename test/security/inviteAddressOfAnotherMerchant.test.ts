import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { signInByFetch } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { follow, invitationPath, invite } from "../members/team.ts";

/**
 * An invite to an address that already belongs to another merchant: the inviter gains nothing
 * over that account, and the address joins nothing until its owner follows the link. Its own
 * sign-in lands in its own account.
 */
describe("inviting another merchant's address", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("joins nothing without its link; its account is untouched; signing in stays its own", async () => {
    const inviter = await claimedMerchant(stack.db);
    const victim = await claimedMerchant(stack.db);
    expect((await invite(stack, inviter.key, victim.email, "owner")).status).toBe(201);
    // Not a member until the link is followed: its sign-in lands in its own account.
    const own = await signInByFetch(stack, victim.email);
    const overview = await stack.request("/dashboard/invoices", {
      headers: { cookie: own.cookie },
    });
    expect(overview.status).toBe(200);
    const session = await stack.db
      .selectFrom("app.dashboard_sessions")
      .select("merchant_id")
      .where("merchant_id", "in", [inviter.merchantId, victim.merchantId])
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(session.merchant_id).toBe(victim.merchantId);
    // The inviter's key still sees nothing of the victim's team or account.
    const members = (await (
      await stack.request("/api/members", { headers: bearer(inviter.key) })
    ).json()) as { members: { email: string; status: string }[] };
    expect(members.members.find((m) => m.email === victim.email)?.status).toBe("invited");
    const victimTeam = await stack.db
      .selectFrom("app.members")
      .select(["email", "role", "status"])
      .where("merchant_id", "=", victim.merchantId)
      .execute();
    expect(victimTeam).toEqual([{ email: victim.email, role: "owner", status: "active" }]);
    // Following the link is the address's own choice: only then is it a member of the inviter's
    // team (and still the only owner of its own).
    const path = await invitationPath(stack, victim.email);
    expect(await follow(stack, path)).toBeDefined();
    const joined = await stack.db
      .selectFrom("app.members")
      .select(["merchant_id", "role", "status"])
      .where("email", "=", victim.email)
      .orderBy("created_at")
      .execute();
    expect(joined).toEqual([
      { merchant_id: victim.merchantId, role: "owner", status: "active" },
      { merchant_id: inviter.merchantId, role: "owner", status: "active" },
    ]);
  });
});
