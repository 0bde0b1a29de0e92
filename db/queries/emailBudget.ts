import { sql } from "kysely";
import type { Executor } from "../database.ts";

/**
 * Serialises the emails of one budget (a merchant's id; `notice:<address>` for one address's
 * verification links) until the transaction ends: a count taken under it cannot be passed by a
 * concurrent request that counted the same emails.
 */
export async function lockEmailBudget(trx: Executor, budgetKey: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('remit:email-budget:' || ${budgetKey}))`.execute(
    trx,
  );
}

/** The merchant's own addresses: its account email and its verified notice address. */
export async function ownEmailAddresses(
  db: Executor,
  merchantId: string,
): Promise<{ account: string; notice: string | null }> {
  const row = await db
    .selectFrom("app.merchants as m")
    .leftJoin("app.merchant_settings as s", "s.merchant_id", "m.id")
    .select(["m.email", "s.notification_email"])
    .where("m.id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return { account: row.email, notice: row.notification_email };
}

/**
 * The emails to others the merchant has queued in the last hour and day, and the age in seconds
 * of the oldest of each: its invoices' emails (vendor invoices, reminders, void notices) and its
 * notice-address verification links, to any recipient but `own`.
 */
export async function emailsToOthers(
  db: Executor,
  merchantId: string,
  own: readonly string[],
): Promise<{ hour: number; day: number; oldestInHourAgo: number; oldestInDayAgo: number }> {
  const ownLower = own.map((address) => address.toLowerCase());
  const { rows } = await sql<{
    hour: string;
    day: string;
    oldest_in_hour_ago: number | null;
    oldest_in_day_ago: number | null;
  }>`
    with others as (
      select e.created_at from app.emails e
      left join app.invoices i on i.id = e.invoice_id
      where e.created_at > now() - interval '1 day'
        and lower(e.recipient) <> all(${ownLower}::text[])
        and (i.merchant_id = ${merchantId}
          or (e.invoice_id is null and e.kind = 'notification_email_verification'
              and lower(e.details->>'merchant_email') = ${ownLower[0] ?? ""})))
    select
      count(*) filter (where created_at > now() - interval '1 hour')::text as hour,
      count(*)::text as day,
      extract(epoch from now() - min(created_at) filter (where created_at > now() - interval '1 hour'))::float8 as oldest_in_hour_ago,
      extract(epoch from now() - min(created_at))::float8 as oldest_in_day_ago
    from others`.execute(db);
  const row = rows[0];
  return {
    hour: Number(row?.hour ?? 0),
    day: Number(row?.day ?? 0),
    oldestInHourAgo: row?.oldest_in_hour_ago ?? 0,
    oldestInDayAgo: row?.oldest_in_day_ago ?? 0,
  };
}

/** Verification links queued to `recipient` (any merchant's) in the last hour. */
export async function recentNoticeVerifications(db: Executor, recipient: string): Promise<number> {
  const row = await db
    .selectFrom("app.emails")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("kind", "=", "notification_email_verification")
    .where(sql<boolean>`lower(recipient) = ${recipient.toLowerCase()}`)
    .where("created_at", ">", sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
