import { expect } from "vitest";
import type { Db } from "../../db/database.ts";
import { insertApiKey } from "../../db/queries/apiKeys.ts";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import type { Role } from "../../domain/accessPolicy.ts";
import { apiKeyRecord, hashSecretToken, newApiKey } from "../../domain/apiKeys.ts";
import { newDashboardSessionToken } from "../../domain/dashboardSession.ts";
import { waitFor } from "../../internal/process.ts";
import { bearer, type Merchant } from "../accounts/accounts.ts";
import { postForm, sessionCookieOf } from "../dashboard/dashboard.ts";
import type { TestStack } from "../helpers/stack.ts";

/** A member of `merchant`'s team with `role`, its write key and a dashboard session (`cookie`). */
export type TeamMember = { memberId: string; email: string; key: string; cookie: string };

/**
 * A member who already joined (straight on the database, as an accepted invitation leaves it),
 * with a key of its role and a session: for tests about what a role may do, not how one joins.
 */
export async function teamMember(db: Db, merchant: Merchant, role: Role): Promise<TeamMember> {
  const email = `${role}-${crypto.randomUUID()}@example.com`;
  const member = await db
    .insertInto("app.members")
    .values({
      merchant_id: merchant.merchantId,
      email,
      role,
      status: "active",
      invited_by: null,
      joined_at: new Date(),
      removed_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const key = newApiKey("write");
  await insertApiKey(db, {
    merchantId: merchant.merchantId,
    ...apiKeyRecord(key),
    name: role,
    scope: "write",
    role,
    memberId: member.id,
  });
  const token = newDashboardSessionToken();
  await insertDashboardSession(db, {
    merchantId: merchant.merchantId,
    memberId: member.id,
    tokenHash: hashSecretToken(token),
    absoluteMinutes: 60,
  });
  return { memberId: member.id, email, key, cookie: `remit_dashboard=${token}` };
}

/** Invites `email` as `role` with `key` (POST /api/members); answers the response. */
export const invite = (stack: TestStack, key: string, email: string, role: Role) =>
  stack.request("/api/members", { method: "POST", json: { email, role }, headers: bearer(key) });

export const INVITATION_LINK = /\/dashboard\/invitations\/([1-9A-HJ-NP-Za-km-z]{43})/;

/** The path of the invitation link emailed to `email` (the stack's worker sends it). */
export async function invitationPath(stack: TestStack, email: string): Promise<string> {
  const sent = await waitFor("the invitation email", async () =>
    (await stack.outbox()).find((e) => e.to.includes(email) && INVITATION_LINK.test(e.text ?? "")),
  );
  return `/dashboard/invitations/${INVITATION_LINK.exec(sent.text ?? "")?.[1]}`;
}

/** Follows an invitation link (its button): the session cookie it starts, or undefined. */
export async function follow(stack: TestStack, path: string): Promise<string | undefined> {
  const response = await postForm(stack, path, {});
  if (response.status === 303) return sessionCookieOf(response);
  expect(response.status).toBe(410);
  return undefined;
}
