import { sql } from "kysely";
import type { OneTimeLinkPurpose } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";

/**
 * One-time email links: the claim links of merchant accounts and the dashboard's sign-in links
 * (`purpose`, default `claim`). A token of one purpose is unknown to the other.
 */

/** Stores a link's token hash for `email`, valid for `ttlMinutes`. */
export async function insertClaimToken(
  db: Executor,
  token: { email: string; tokenHash: string; ttlMinutes: number; purpose?: OneTimeLinkPurpose },
): Promise<void> {
  await db
    .insertInto("app.claim_tokens")
    .values({
      email: token.email,
      token_hash: token.tokenHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${token.ttlMinutes})`,
      used_at: null,
      purpose: token.purpose ?? "claim",
    })
    .execute();
}

/** How many links of `purpose` were made for `email` in the last hour (a cap on emails to one address). */
export async function countRecentClaimTokens(
  db: Executor,
  email: string,
  purpose: OneTimeLinkPurpose = "claim",
): Promise<number> {
  const row = await db
    .selectFrom("app.claim_tokens")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("email", "=", email)
    .where("purpose", "=", purpose)
    .where("created_at", ">", sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
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
    .where("token_hash", "=", tokenHash)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
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
    .set({ used_at: sql<Date>`now()` })
    .where("token_hash", "=", tokenHash)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning("email")
    .executeTakeFirst();
  return row?.email;
}
