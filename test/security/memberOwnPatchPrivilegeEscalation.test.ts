import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { teamMember } from "../members/team.ts";

/**
 * Privilege escalation through a member's own PATCH: a member (or a key it made) changes its
 * own role to one that may do more (an admin making itself owner, a developer reaching the
 * members' routes at all). Refused, and nothing changes; lowering one's own role is allowed.
 */
describe("a member cannot raise its own role", () => {
  let stack: TestStack;
  let owner: Merchant;
  beforeAll(async () => {
    stack = await startStack();
    owner = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const patch = (key: string, id: string, role: string) =>
    stack.request(`/api/members/${id}`, { method: "PATCH", json: { role }, headers: bearer(key) });
  const roleOf = async (id: string) =>
    (
      await stack.db
        .selectFrom("app.members")
        .select("role")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).role;

  test("an admin making itself owner: 403, still admin", async () => {
    const admin = await teamMember(stack.db, owner, "admin");
    const response = await patch(admin.key, admin.memberId, "owner");
    expect(response.status).toBe(403);
    expect(await roleOf(admin.memberId)).toBe("admin");
    // Nor may it make another member owner, or change an owner.
    const other = await teamMember(stack.db, owner, "support");
    expect((await patch(admin.key, other.memberId, "owner")).status).toBe(403);
    expect(await roleOf(other.memberId)).toBe("support");
  });

  test("a developer or an accountant reaching its own member: 403 insufficient_role", async () => {
    for (const role of ["developer", "accountant", "support"] as const) {
      const member = await teamMember(stack.db, owner, role);
      const response = await patch(member.key, member.memberId, "admin");
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        "insufficient_role",
      );
      expect(await roleOf(member.memberId)).toBe(role);
    }
  });

  test("an admin's key limited to support cannot lift its maker either", async () => {
    const admin = await teamMember(stack.db, owner, "admin");
    const made = await stack.request("/api/keys", {
      method: "POST",
      json: { name: "support desk", role: "support" },
      headers: bearer(admin.key),
    });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    expect((await patch(key, admin.memberId, "owner")).status).toBe(403);
    expect(await roleOf(admin.memberId)).toBe("admin");
  });

  test("lowering one's own role is allowed, and its keys are lowered with it", async () => {
    const admin = await teamMember(stack.db, owner, "admin");
    expect((await patch(admin.key, admin.memberId, "support")).status).toBe(200);
    expect(await roleOf(admin.memberId)).toBe("support");
    // Its admin key now does only what support may.
    expect((await stack.request("/api/members", { headers: bearer(admin.key) })).status).toBe(403);
    expect((await patch(admin.key, admin.memberId, "admin")).status).toBe(403);
  });
});
