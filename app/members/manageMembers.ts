import type { Executor } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import { queueAccountEmail } from "../../db/queries/emails.ts";
import {
  acceptInvitation,
  countActiveOwners,
  countPendingInvitations,
  findLiveMemberByEmail,
  findMember,
  findUsableInvitation,
  insertInvitation,
  insertInvitedMember,
  invitationEnds,
  listMembers,
  lockTeam,
  type MemberRow,
  removeMemberRow,
  setMemberRole,
} from "../../db/queries/members.ts";
import { mayGrant, type Role, roleAllows } from "../../domain/accessPolicy.ts";
import { hashSecretToken, newClaimToken } from "../../domain/apiKeys.ts";
import {
  DASHBOARD_SESSION_ABSOLUTE_MINUTES,
  newDashboardSessionToken,
} from "../../domain/dashboardSession.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import { type Actor, type MerchantActor, merchantAudit } from "../actor.ts";
import { assertMayGrant, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal } from "../refusal.ts";
import { emailOwners } from "./ownerNotice.ts";

export type { MemberRow };

/** How long an invitation link works: long enough for a colleague to find it in its inbox. */
export const INVITATION_TTL_MINUTES = 3 * 24 * 60;

/**
 * How many invitations an account may have pending at once (their links unused and unexpired):
 * a team grows by people who follow their links, and a stolen admin session or key cannot turn
 * the account into a mail cannon (each invitation emails its address and the owners).
 */
export const MAX_PENDING_INVITATIONS = 50;

/** An account always keeps an active owner: its last one is neither demoted nor removed (409). */
async function assertNotLastOwner(
  trx: Executor,
  merchantId: string,
  member: MemberRow,
): Promise<void> {
  if (member.role !== "owner" || member.status !== "active") return;
  if ((await countActiveOwners(trx, merchantId)) > 1) return;
  throw new Refusal(
    "conflict",
    "last_owner",
    "this is the account's last owner: make another member owner first",
  );
}

/** The actor's own members, removed ones included (GET /api/members). */
export const ownMembers = (deps: Pick<CoreDeps, "db">, actor: Actor): Promise<MemberRow[]> =>
  listMembers(deps.db, ownMerchantId(actor.identity));

/** When each of the actor's invited members' link stops working, by member id. */
export const ownInvitationEnds = (
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
): Promise<Map<string, Date>> => invitationEnds(deps.db, ownMerchantId(actor.identity));

/**
 * Invites `email` to the actor's team as `role` (never a role above the actor's: 403
 * `role_above_yours`; an address already in the team: 409 `already_member`; MAX_PENDING_INVITATIONS
 * pending already: 409 `invitation_limit_reached`): an invited member,
 * and a one-time link emailed to it (its token stored only as a hash, sealed in the email until
 * sent). The invitee joins nothing until it follows the link, whatever else the address is. The
 * owners are emailed; audited.
 */
export async function inviteMember(
  deps: Pick<CoreDeps, "db" | "log" | "webhookKeys">,
  actor: MerchantActor,
  input: { email: string; role: Role },
): Promise<MemberRow> {
  const { identity } = actor;
  assertMayGrant(identity, input.role);
  const email = input.email.toLowerCase();
  const member = await deps.db.transaction().execute(async (trx) => {
    await lockTeam(trx, identity.merchantId);
    if (await findLiveMemberByEmail(trx, identity.merchantId, email))
      throw new Refusal("conflict", "already_member", "this address is already in the team", [
        { path: "email", code: "already_member", message: "is already a member or invited" },
      ]);
    if ((await countPendingInvitations(trx, identity.merchantId)) >= MAX_PENDING_INVITATIONS)
      throw new Refusal(
        "conflict",
        "invitation_limit_reached",
        `an account has at most ${MAX_PENDING_INVITATIONS} pending invitations: withdraw one first`,
      );
    const row = await insertInvitedMember(trx, {
      merchantId: identity.merchantId,
      email,
      role: input.role,
      invitedBy: identity.memberId,
    });
    const token = newClaimToken();
    await insertInvitation(trx, {
      memberId: row.id,
      tokenHash: hashSecretToken(token),
      ttlMinutes: INVITATION_TTL_MINUTES,
    });
    await queueAccountEmail(trx, {
      kind: "member_invitation",
      recipient: email,
      sealed: sealSecret(token, deps.webhookKeys),
      details: {
        role: input.role,
        team: identity.merchantEmail,
        hours: String(INVITATION_TTL_MINUTES / 60),
      },
    });
    await recordAudit(trx, {
      ...merchantAudit(actor, "member.invited", row.id),
      details: { role: { from: null, to: input.role } },
    });
    await emailOwners(trx, identity, `${email} was invited to the team as ${input.role}`);
    return row;
  });
  deps.log.info("member invited", { member_id: member.id, role: input.role });
  return member;
}

/**
 * Changes a member's role, the team locked meanwhile (two admins at once: one after the other,
 * the last owner always counted right). Refused: a role above the actor's, an owner's role
 * changed by a non-owner (403), the last owner demoted (409 `last_owner`), a member raising its
 * own role (403 `own_role`). The owners are emailed; audited. Undefined: no such member.
 */
export async function changeMemberRole(
  deps: Pick<CoreDeps, "db" | "log">,
  actor: MerchantActor,
  id: string,
  role: Role,
): Promise<MemberRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const { identity } = actor;
  const changed = await deps.db.transaction().execute(async (trx) => {
    await lockTeam(trx, identity.merchantId);
    const member = await findMember(trx, identity.merchantId, id);
    if (!member || member.status === "removed") return undefined;
    if (member.role === role) return member;
    assertMayManage(actor, member);
    assertMayGrant(identity, role);
    if (member.id === identity.memberId && !isBelow(role, member.role))
      throw new Refusal("forbidden", "own_role", "a member cannot raise its own role", [
        { path: "role", code: "own_role", message: "only another member may raise yours" },
      ]);
    await assertNotLastOwner(trx, identity.merchantId, member);
    const updated = await setMemberRole(trx, id, role);
    await recordAudit(trx, {
      ...merchantAudit(actor, "member.role_changed", id),
      details: { role: { from: member.role, to: role } },
    });
    await emailOwners(trx, identity, `${member.email} is now ${role} (was ${member.role})`);
    return updated;
  });
  if (changed) deps.log.info("member role changed", { member_id: id, role });
  return changed;
}

/**
 * Removes a member: its sessions end and its keys stop working at once, on every replica
 * (both are looked up through the member on each request), its invitation link too. Refused:
 * an owner removed by a non-owner (403), the last owner (409 `last_owner`). The owners are
 * emailed; audited. Undefined: no such member (a removed one stays removed).
 */
export async function removeMember(
  deps: Pick<CoreDeps, "db" | "log">,
  actor: MerchantActor,
  id: string,
): Promise<MemberRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const { identity } = actor;
  const removed = await deps.db.transaction().execute(async (trx) => {
    await lockTeam(trx, identity.merchantId);
    const member = await findMember(trx, identity.merchantId, id);
    if (!member) return undefined;
    if (member.status === "removed") return member;
    assertMayManage(actor, member);
    await assertNotLastOwner(trx, identity.merchantId, member);
    const row = await removeMemberRow(trx, id);
    await recordAudit(trx, merchantAudit(actor, "member.removed", id));
    await emailOwners(trx, identity, `${member.email} (${member.role}) was removed from the team`);
    return row;
  });
  if (removed) deps.log.info("member removed", { member_id: id });
  return removed;
}

/** Only an owner changes or removes an owner (ownership: domain/accessPolicy.ts). */
function assertMayManage(actor: MerchantActor, member: MemberRow): void {
  if (member.role === "owner" && !roleAllows(actor.identity.memberRole, "ownership"))
    throw new Refusal("forbidden", "owner_only", "only an owner may change or remove an owner");
}

/** Whether `role` may do strictly less than `than` (lowering one's own role is allowed). */
const isBelow = (role: Role, than: Role): boolean => role !== than && mayGrant(than, role);

/** Whether an invitation link still works (the page's GET: consumes nothing). */
export async function isInvitationUsable(
  deps: Pick<CoreDeps, "db">,
  token: string,
): Promise<boolean> {
  return (await findUsableInvitation(deps.db, hashSecretToken(token))) !== undefined;
}

/**
 * Follows an invitation link once: its member joins the team and is signed in to the
 * dashboard with its own address (a new session, as its token for the cookie); null when the
 * link does not work (unknown, used, expired, its member removed), and then nothing changes.
 */
export async function joinWithInvitation(
  deps: Pick<CoreDeps, "db">,
  token: string,
  requestId: string | null,
): Promise<string | null> {
  const sessionToken = newDashboardSessionToken();
  const joined = await deps.db.transaction().execute(async (trx) => {
    const member = await acceptInvitation(trx, hashSecretToken(token));
    if (!member) return null;
    await insertDashboardSession(trx, {
      ...member,
      tokenHash: hashSecretToken(sessionToken),
      absoluteMinutes: DASHBOARD_SESSION_ABSOLUTE_MINUTES,
    });
    await recordAudit(trx, {
      merchantId: member.merchantId,
      actor: "dashboard",
      keyId: null,
      memberId: member.memberId,
      action: "member.joined",
      target: member.memberId,
      requestId,
    });
    return member;
  });
  return joined ? sessionToken : null;
}
