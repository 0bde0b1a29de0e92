import { type ExpressionBuilder, sql } from "kysely";
import type { OneTimeLinkPurpose } from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";

type TokenEb = ExpressionBuilder<Database, "app.claim_tokens">;

/** The links of `purpose` made for `email` (the caps count them per address). */
const linksTo = (email: string, purpose: OneTimeLinkPurpose) => (eb: TokenEb) =>
  eb.and([eb("email", "=", email), eb("purpose", "=", purpose)]);

/** The link of `purpose` whose token hash is `tokenHash`, while it works: neither used nor expired. */
const usableLink = (tokenHash: string, purpose: OneTimeLinkPurpose) => (eb: TokenEb) =>
  eb.and([
    eb("token_hash", "=", tokenHash),
    eb("purpose", "=", purpose),
    eb("used_at", "is", null),
    eb("expires_at", ">", sql<Date>`now()`),
  ]);

/**
 * One-time email links: the claim links of merchant accounts and the dashboard's sign-in links
 * (`purpose`, default `claim`). A token of one purpose is unknown to the other.
 */

/**
 * Stores a link's token hash for `email`, valid for `ttlMinutes`; with `sealed` (the token
 * sealed, kept for re-sending until used or expired), the requesting client's hash, and
 * `overCap` when it is emailed beyond the caps.
 */
export async function insertClaimToken(
  db: Executor,
  token: {
    email: string;
    tokenHash: string;
    ttlMinutes: number;
    purpose?: OneTimeLinkPurpose;
    sealed?: string;
    clientHash?: string;
    overCap?: boolean;
  },
): Promise<void> {
  await db
    .insertInto("app.claim_tokens")
    .values({
      email: token.email,
      token_hash: token.tokenHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${token.ttlMinutes})`,
      used_at: null,
      purpose: token.purpose ?? "claim",
      sealed: token.sealed ?? null,
      client_hash: token.clientHash ?? null,
      over_cap_sent_at: token.overCap ? sql<Date>`now()` : null,
    })
    .execute();
}

/**
 * Serialises the link requests for one address and purpose until the caller's transaction
 * ends: two concurrent requests cannot both slip under a cap.
 */
export async function lockOneTimeLinks(
  db: Executor,
  email: string,
  purpose: OneTimeLinkPurpose,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`one-time link:${purpose}:${email}`}, 0))`.execute(
    db,
  );
}

/**
 * How many links of `purpose` were made for `email` in the last hour, in all and at the request
 * of `clientHash` (the caps on new links to one address).
 */
export async function countRecentClaimTokens(
  db: Executor,
  email: string,
  purpose: OneTimeLinkPurpose = "claim",
  clientHash?: string,
): Promise<{ total: number; fromClient: number }> {
  const row = await db
    .selectFrom("app.claim_tokens")
    .select((eb) => [
      eb.fn.countAll<string>().as("total"),
      sql<string>`count(*) filter (where client_hash = ${clientHash ?? null})`.as("from_client"),
    ])
    .where(linksTo(email, purpose))
    .where("created_at", ">", sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), fromClient: Number(row.from_client) };
}

/** Whether a link of `purpose` was emailed to `email` beyond the caps in the last `minutes`. */
export async function sentOverCapWithin(
  db: Executor,
  email: string,
  purpose: OneTimeLinkPurpose,
  minutes: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("app.claim_tokens")
    .select("id")
    .where(linksTo(email, purpose))
    .where("over_cap_sent_at", ">", sql<Date>`now() - make_interval(mins => ${minutes})`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The newest link of `purpose` to `email` that still works for at least `minMinutesLeft`, with
 * its sealed token (for emailing it again), or undefined.
 */
export async function newestLiveClaimToken(
  db: Executor,
  email: string,
  purpose: OneTimeLinkPurpose,
  minMinutesLeft: number,
): Promise<{ id: string; sealed: string } | undefined> {
  const row = await db
    .selectFrom("app.claim_tokens")
    .select(["id", "sealed"])
    .where(linksTo(email, purpose))
    .where("used_at", "is", null)
    .where("sealed", "is not", null)
    .where("expires_at", ">", sql<Date>`now() + make_interval(mins => ${minMinutesLeft})`)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.sealed ? { id: row.id, sealed: row.sealed } : undefined;
}

/** Records that the link was emailed again, beyond the caps. */
export async function markClaimTokenResent(db: Executor, id: string): Promise<void> {
  await db
    .updateTable("app.claim_tokens")
    .set({ over_cap_sent_at: sql<Date>`now()` })
    .where("id", "=", id)
    .execute();
}

/** Erases the sealed copies of expired links: a link that can no longer work is kept as a hash only. */
export async function clearExpiredSealedTokens(db: Executor): Promise<void> {
  await db
    .updateTable("app.claim_tokens")
    .set({ sealed: null })
    .where("sealed", "is not", null)
    .where("expires_at", "<=", sql<Date>`now()`)
    .execute();
}

/** Whether the hash names a token that is neither used nor expired (the page's GET: consumes nothing). */
export async function isClaimTokenUsable(
  db: Executor,
  tokenHash: string,
  purpose: OneTimeLinkPurpose = "claim",
): Promise<boolean> {
  const row = await db
    .selectFrom("app.claim_tokens")
    .select("id")
    .where(usableLink(tokenHash, purpose))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Uses the token once: marks it used and answers its email, or undefined when it is unknown,
 * expired or already used. Two concurrent uses: the row lock lets exactly one through.
 */
export async function useClaimToken(
  db: Executor,
  tokenHash: string,
  purpose: OneTimeLinkPurpose = "claim",
): Promise<string | undefined> {
  const row = await db
    .updateTable("app.claim_tokens")
    // Used: its sealed copy goes too, the link is never emailed again.
    .set({ used_at: sql<Date>`now()`, sealed: null })
    .where(usableLink(tokenHash, purpose))
    .returning("email")
    .executeTakeFirst();
  return row?.email;
}
