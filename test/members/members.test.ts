import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { csrfOf, postForm } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { freshAddress } from "../refunds/helpers.ts";
import { follow, invitationPath, invite, teamMember } from "./team.ts";

/**
 * Issue 46: a team with roles. Invitations by a one-time link; what each role may do, enforced
 * for keys and dashboard sessions alike; removing a member ends everything of it at once; the
 * last owner stays; concurrent role changes leave one consistent team.
 */
describe("members and roles", () => {
  let stack: TestStack;
  let owner: Merchant;
  let invoiceId: string;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    owner = await claimedMerchant(stack.db);
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: owner.email }),
      headers: bearer(owner.key),
    });
    expect(created.status).toBe(201);
    invoiceId = ((await created.json()) as { invoice_id: string }).invoice_id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const refundsOf = async (id: string) =>
    (await stack.db.selectFrom("app.refunds").select("id").where("invoice_id", "=", id).execute())
      .length;
  const refund = (key: string) =>
    stack.request(`/api/invoices/${invoiceId}/refunds`, {
      method: "POST",
      json: { to: freshAddress() },
      headers: bearer(key),
    });

  test("the account's first email is its owner", async () => {
    const response = await stack.request("/api/members", { headers: bearer(owner.key) });
    expect(response.status).toBe(200);
    const { members } = (await response.json()) as { members: { email: string; role: string }[] };
    expect(members).toEqual([
      expect.objectContaining({ email: owner.email, role: "owner", status: "active" }),
    ]);
  });

  test("an invited accountant joins by its link, signed in with its own address; it exports and cannot refund (403, nothing on chain)", async () => {
    const email = `books-${crypto.randomUUID()}@example.com`;
    const invited = await invite(stack, owner.key, email, "accountant");
    expect(invited.status).toBe(201);
    const member = (await invited.json()) as { id: string; status: string };
    expect(member.status).toBe("invited");
    const path = await invitationPath(stack, email);
    expect((await stack.request(path)).status).toBe(200);
    const cookie = await follow(stack, path);
    expect(cookie).toBeDefined();
    const overview = await stack.request("/dashboard", { headers: { cookie: cookie ?? "" } });
    expect(overview.status).toBe(200);
    const exported = await stack.request("/dashboard/exports/invoices.csv", {
      headers: { cookie: cookie ?? "" },
    });
    expect(exported.status).toBe(200);
    const csrf = await csrfOf(stack, cookie ?? "", "/dashboard/invoices");
    const refused = await postForm(
      stack,
      `/dashboard/invoices/${invoiceId}/refunds`,
      { _csrf: csrf, to: freshAddress() },
      { cookie: cookie ?? "" },
    );
    expect(refused.status).toBe(403);
    // Its key: the exports, never a refund.
    const accountant = await teamMember(stack.db, owner, "accountant");
    const csv = await stack.request("/api/exports/payments.csv", {
      headers: bearer(accountant.key),
    });
    expect(csv.status).toBe(200);
    const denied = await refund(accountant.key);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe(
      "insufficient_role",
    );
    expect(await refundsOf(invoiceId)).toBe(0);
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select(["action", "member_id"])
      .where("merchant_id", "=", owner.merchantId)
      .where("action", "in", ["member.invited", "member.joined"])
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(["member.invited", "member.joined"]);
    expect(audit[1]?.member_id).toBe(member.id);
    expect(audit[0]?.member_id).not.toBeNull();
  });

  test("a developer's key cannot refund or change a wallet, nor mint a key that could", async () => {
    const developer = await teamMember(stack.db, owner, "developer");
    expect((await refund(developer.key)).status).toBe(403);
    const wallet = await stack.request("/api/merchant/wallets", {
      method: "POST",
      json: { address: freshAddress() },
      headers: bearer(developer.key),
    });
    expect(wallet.status).toBe(403);
    const admin = await stack.request("/api/keys", {
      method: "POST",
      json: { name: "escalate", role: "admin" },
      headers: bearer(developer.key),
    });
    expect(admin.status).toBe(403);
    expect(((await admin.json()) as { error: { code: string } }).error.code).toBe(
      "role_above_yours",
    );
    const made = await stack.request("/api/keys", {
      method: "POST",
      json: { name: "ci" },
      headers: bearer(developer.key),
    });
    expect(made.status).toBe(201);
    const ci = (await made.json()) as { key: string; role: string; member_id: string };
    expect(ci.role).toBe("developer");
    expect(ci.member_id).toBe(developer.memberId);
    expect((await refund(ci.key)).status).toBe(403);
    expect(await refundsOf(invoiceId)).toBe(0);
    // What a developer is for: webhook endpoints.
    const endpoint = await stack.request("/api/webhook-endpoints", {
      method: "POST",
      json: { url: "https://hooks.example.com/dev" },
      headers: bearer(developer.key),
    });
    expect(endpoint.status).toBe(201);
  });

  test("removing a member ends its sessions and keys at once", async () => {
    const support = await teamMember(stack.db, owner, "support");
    expect((await stack.request("/api/invoices", { headers: bearer(support.key) })).status).toBe(
      200,
    );
    expect(
      (await stack.request("/dashboard/invoices", { headers: { cookie: support.cookie } })).status,
    ).toBe(200);
    const removed = await stack.request(`/api/members/${support.memberId}`, {
      method: "DELETE",
      headers: bearer(owner.key),
    });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as { status: string }).status).toBe("removed");
    expect((await stack.request("/api/invoices", { headers: bearer(support.key) })).status).toBe(
      401,
    );
    const page = await stack.request("/dashboard/invoices", {
      headers: { cookie: support.cookie },
      redirect: "manual",
    });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/dashboard/sign-in");
  });

  test("the last owner cannot be removed or demoted", async () => {
    const { members } = (await (
      await stack.request("/api/members", { headers: bearer(owner.key) })
    ).json()) as { members: { id: string; role: string }[] };
    const ownerId = members.find((m) => m.role === "owner")?.id ?? "";
    const demoted = await stack.request(`/api/members/${ownerId}`, {
      method: "PATCH",
      json: { role: "admin" },
      headers: bearer(owner.key),
    });
    expect(demoted.status).toBe(409);
    expect(((await demoted.json()) as { error: { code: string } }).error.code).toBe("last_owner");
    const removed = await stack.request(`/api/members/${ownerId}`, {
      method: "DELETE",
      headers: bearer(owner.key),
    });
    expect(removed.status).toBe(409);
    const roles = await stack.db
      .selectFrom("app.members")
      .select(["role", "status"])
      .where("id", "=", ownerId)
      .executeTakeFirstOrThrow();
    expect(roles).toEqual({ role: "owner", status: "active" });
  });

  test("two owners demoting each other at once leave exactly one owner", async () => {
    const merchant = await claimedMerchant(stack.db);
    const second = await teamMember(stack.db, merchant, "owner");
    const first = await stack.db
      .selectFrom("app.members")
      .select("id")
      .where("merchant_id", "=", merchant.merchantId)
      .where("email", "=", merchant.email)
      .executeTakeFirstOrThrow();
    const demote = (key: string, id: string) =>
      stack.request(`/api/members/${id}`, {
        method: "PATCH",
        json: { role: "admin" },
        headers: bearer(key),
      });
    const [a, b] = await Promise.all([
      demote(merchant.key, second.memberId),
      demote(second.key, first.id),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const owners = await stack.db
      .selectFrom("app.members")
      .select("id")
      .where("merchant_id", "=", merchant.merchantId)
      .where("role", "=", "owner")
      .where("status", "=", "active")
      .execute();
    expect(owners).toHaveLength(1);
  });

  test("an invitation link expires", async () => {
    const email = `late-${crypto.randomUUID()}@example.com`;
    expect((await invite(stack, owner.key, email, "support")).status).toBe(201);
    const path = await invitationPath(stack, email);
    await stack.db
      .updateTable("app.member_invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("used_at", "is", null)
      .execute();
    expect((await stack.request(path)).status).toBe(410);
    expect(await follow(stack, path)).toBeUndefined();
    const member = await stack.db
      .selectFrom("app.members")
      .select("status")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(member.status).toBe("invited");
  });
});
