import { sql } from "kysely";
import type { Role } from "../../domain/accessPolicy.ts";
import type { MemberStatus } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";

/** A member of a merchant's team, as the API lists it. */
export type MemberRow = {
  id: string;
  email: string;
  role: Role;
  status: MemberStatus;
  invited_by: string | null;
  created_at: Date;
  joined_at: Date | null;
  removed_at: Date | null;
};

const listed = [
  "id",
  "email",
  "role",
  "status",
  "invited_by",
  "created_at",
  "joined_at",
  "removed_at",
] as const;

/** The merchant's owner member's id, as SQL (what a key or session made without a member is made by). */
export const ownerMemberOf = (merchantId: string) =>
  sql<string>`(select id from app.members where merchant_id = ${merchantId} and role = 'owner'
    and status = 'active' order by created_at, id limit 1)`;

/**
 * Serialises every change to the merchant's team until the caller's transaction ends: two
 * admins changing roles at once are applied one after the other, each seeing the other's result
 * (the last owner is always counted right).
 */
export async function lockTeam(db: Executor, merchantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`team:${merchantId}`}, 0))`.execute(db);
}

/** The merchant's members, removed ones included, oldest first. */
export function listMembers(db: Executor, merchantId: string): Promise<MemberRow[]> {
  return db
    .selectFrom("app.members")
    .select(listed)
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** The merchant's member `id` (undefined: none of its). */
export function findMember(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom("app.members")
    .select(listed)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The merchant's live (invited or active) member of `email`, if any. */
export function findLiveMemberByEmail(
  db: Executor,
  merchantId: string,
  email: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom("app.members")
    .select(listed)
    .where("merchant_id", "=", merchantId)
    .where("email", "=", email)
    .where("status", "<>", "removed")
    .executeTakeFirst();
}

/** How many active owners the merchant has. */
export async function countActiveOwners(db: Executor, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom("app.members")
    .select((eb) => eb.fn.countAll<string>().as("owners"))
    .where("merchant_id", "=", merchantId)
    .where("role", "=", "owner")
    .where("status", "=", "active")
    .executeTakeFirstOrThrow();
  return Number(row.owners);
}

/** The addresses of the merchant's active owners (emailed on every change of money or team). */
export async function activeOwnerEmails(db: Executor, merchantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("app.members")
    .select("email")
    .where("merchant_id", "=", merchantId)
    .where("role", "=", "owner")
    .where("status", "=", "active")
    .orderBy("created_at")
    .execute();
  return [...new Set(rows.map((row) => row.email))];
}

/**
 * How many of the merchant's invitations are pending: their member still invited, their link
 * unused and unexpired (an expired one holds no place; revoking its member frees the address).
 */
export async function countPendingInvitations(db: Executor, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom("app.member_invitations as i")
    .innerJoin("app.members as m", "m.id", "i.member_id")
    .select((eb) => eb.fn.countAll<string>().as("pending"))
    .where("m.merchant_id", "=", merchantId)
    .where("m.status", "=", "invited")
    .where("i.used_at", "is", null)
    .where("i.expires_at", ">", sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  return Number(row.pending);
}

/** When each of the merchant's invited members' link stops working (its latest link's end). */
export async function invitationEnds(db: Executor, merchantId: string): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom("app.member_invitations as i")
    .innerJoin("app.members as m", "m.id", "i.member_id")
    .select(["m.id", (eb) => eb.fn.max("i.expires_at").as("expires_at")])
    .where("m.merchant_id", "=", merchantId)
    .where("m.status", "=", "invited")
    .groupBy("m.id")
    .execute();
  return new Map(rows.map((row) => [row.id, row.expires_at]));
}

/** A new invited member. */
export function insertInvitedMember(
  db: Executor,
  member: { merchantId: string; email: string; role: Role; invitedBy: string | null },
): Promise<MemberRow> {
  return db
    .insertInto("app.members")
    .values({
      merchant_id: member.merchantId,
      email: member.email,
      role: member.role,
      status: "invited",
      invited_by: member.invitedBy,
      joined_at: null,
      removed_at: null,
    })
    .returning(listed)
    .executeTakeFirstOrThrow();
}

/** Sets the member's role. */
export function setMemberRole(db: Executor, id: string, role: Role): Promise<MemberRow> {
  return db
    .updateTable("app.members")
    .set({ role })
    .where("id", "=", id)
    .returning(listed)
    .executeTakeFirstOrThrow();
}

/**
 * Removes the member: its keys are revoked, its sessions end and its invitation links stop
 * working, in the caller's transaction. (Keys and sessions are looked up through the member on
 * every request too, so nothing of a removed member works anywhere, even before this commits
 * elsewhere.)
 */
export async function removeMemberRow(db: Executor, id: string): Promise<MemberRow> {
  const row = await db
    .updateTable("app.members")
    .set({ status: "removed", removed_at: sql<Date>`now()` })
    .where("id", "=", id)
    .returning(listed)
    .executeTakeFirstOrThrow();
  await db
    .updateTable("app.api_keys")
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where("member_id", "=", id)
    .execute();
  await db.deleteFrom("app.dashboard_sessions").where("member_id", "=", id).execute();
  await db
    .updateTable("app.member_invitations")
    .set({ expires_at: sql<Date>`least(expires_at, now())` })
    .where("member_id", "=", id)
    .where("used_at", "is", null)
    .execute();
  return row;
}

/** Stores an invitation link's token hash for the member, valid for `ttlMinutes`. */
export async function insertInvitation(
  db: Executor,
  invitation: { memberId: string; tokenHash: string; ttlMinutes: number },
): Promise<void> {
  await db
    .insertInto("app.member_invitations")
    .values({
      member_id: invitation.memberId,
      token_hash: invitation.tokenHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${invitation.ttlMinutes})`,
      used_at: null,
    })
    .execute();
}

/** An invitation that still works: unused, unexpired, its member still invited. */
export async function findUsableInvitation(
  db: Executor,
  tokenHash: string,
): Promise<{ memberId: string; merchantId: string; email: string; role: Role } | undefined> {
  const row = await db
    .selectFrom("app.member_invitations as i")
    .innerJoin("app.members as m", "m.id", "i.member_id")
    .select(["m.id", "m.merchant_id", "m.email", "m.role"])
    .where("i.token_hash", "=", tokenHash)
    .where("i.used_at", "is", null)
    .where("i.expires_at", ">", sql<Date>`now()`)
    .where("m.status", "=", "invited")
    .executeTakeFirst();
  return row && { memberId: row.id, merchantId: row.merchant_id, email: row.email, role: row.role };
}

/**
 * Uses an invitation's token once: marks it used and its member active, answering the member;
 * undefined when the link does not work (unknown, used, expired, or its member removed). Two
 * concurrent uses: the row lock lets exactly one through.
 */
export async function acceptInvitation(
  db: Executor,
  tokenHash: string,
): Promise<{ memberId: string; merchantId: string } | undefined> {
  const used = await db
    .updateTable("app.member_invitations")
    .set({ used_at: sql<Date>`now()` })
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning("member_id")
    .executeTakeFirst();
  if (!used) return undefined;
  const member = await db
    .updateTable("app.members")
    .set({ status: "active", joined_at: sql<Date>`now()` })
    .where("id", "=", used.member_id)
    .where("status", "=", "invited")
    .returning(["id", "merchant_id"])
    .executeTakeFirst();
  return member && { memberId: member.id, merchantId: member.merchant_id };
}

/**
 * The membership an address signs in to: its own account's when it has one (an owner signing
 * in to the account it claimed), else the one it joined last, of a claimed merchant.
 */
export async function findSignInMember(
  db: Executor,
  email: string,
): Promise<{ memberId: string; merchantId: string } | undefined> {
  const row = await db
    .selectFrom("app.members as m")
    .innerJoin("app.merchants as a", "a.id", "m.merchant_id")
    .select(["m.id", "m.merchant_id"])
    .where("m.email", "=", email)
    .where("m.status", "=", "active")
    .where("a.claimed_at", "is not", null)
    .orderBy(sql`a.email = m.email`, "desc")
    .orderBy("m.joined_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row && { memberId: row.id, merchantId: row.merchant_id };
}
