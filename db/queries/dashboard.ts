import { sql } from "kysely";
import type { Executor } from "../database.ts";
import type { InvoiceRow } from "./invoices.ts";
import type { LinkRow } from "./links.ts";

/**
 * What the dashboard reads beyond the API's own queries: its overview's sums, its settings,
 * and simple keyset-paged lists of one merchant's records (newest first).
 */

export type MerchantSettings = {
  default_name: string | null;
  default_address: string | null;
  notification_email: string | null;
};

const NO_SETTINGS: MerchantSettings = {
  default_name: null,
  default_address: null,
  notification_email: null,
};

export async function findMerchantSettings(
  db: Executor,
  merchantId: string,
): Promise<MerchantSettings & { pending_notification_email: string | null }> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select(["default_name", "default_address", "notification_email"])
    // Only while its link still works: an expired one is as good as none.
    .select(
      sql<
        string | null
      >`case when pending_expires_at > now() then pending_notification_email end`.as(
        "pending_notification_email",
      ),
    )
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row ?? { ...NO_SETTINGS, pending_notification_email: null };
}

/** Saves the three settings; a pending notification email is left as it is. */
export async function saveMerchantSettings(
  db: Executor,
  merchantId: string,
  settings: MerchantSettings,
): Promise<void> {
  const values = {
    default_name: settings.default_name,
    default_address: settings.default_address,
    notification_email: settings.notification_email,
  };
  await db
    .insertInto("app.merchant_settings")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) =>
      oc.column("merchant_id").doUpdateSet({ ...values, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/**
 * Sets (or with null, clears) the notification email waiting for its link to be followed: its
 * token's hash, valid for `ttlMinutes`. A newer one replaces it, and its link stops working.
 */
export async function setPendingNotificationEmail(
  db: Executor,
  merchantId: string,
  pending: { email: string; tokenHash: string; ttlMinutes: number } | null,
): Promise<void> {
  await db
    .updateTable("app.merchant_settings")
    .set({
      pending_notification_email: pending?.email ?? null,
      pending_token_hash: pending?.tokenHash ?? null,
      pending_expires_at: pending
        ? sql<Date>`now() + make_interval(mins => ${pending.ttlMinutes})`
        : null,
    })
    .where("merchant_id", "=", merchantId)
    .execute();
}

/** Whether the hash names a pending notification email whose link still works (consumes nothing). */
export async function isNotificationEmailTokenUsable(
  db: Executor,
  tokenHash: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select("merchant_id")
    .where("pending_token_hash", "=", tokenHash)
    .where("pending_expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Follows a notification email's link once: the pending address becomes the notification
 * email. Answers the merchant and the change, or undefined when the token is unknown, expired,
 * used or replaced.
 */
export async function confirmNotificationEmail(
  db: Executor,
  tokenHash: string,
): Promise<{ merchantId: string; from: string | null; to: string } | undefined> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select(["merchant_id", "notification_email", "pending_notification_email"])
    .where("pending_token_hash", "=", tokenHash)
    .where("pending_expires_at", ">", sql<Date>`now()`)
    .forUpdate()
    .executeTakeFirst();
  if (!row?.pending_notification_email) return undefined;
  await db
    .updateTable("app.merchant_settings")
    .set({
      notification_email: row.pending_notification_email,
      pending_notification_email: null,
      pending_token_hash: null,
      pending_expires_at: null,
      updated_at: sql<Date>`now()`,
    })
    .where("merchant_id", "=", row.merchant_id)
    .execute();
  return {
    merchantId: row.merchant_id,
    from: row.notification_email,
    to: row.pending_notification_email,
  };
}

/** Where the merchant of `email` wants its payment notices: its notification email, or `email`. */
export async function notificationRecipient(db: Executor, email: string): Promise<string> {
  const row = await db
    .selectFrom("app.merchant_settings as s")
    .innerJoin("app.merchants as m", "m.id", "s.merchant_id")
    .select("s.notification_email")
    .where("m.email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row?.notification_email ?? email;
}

export type Overview = {
  /** Received this calendar month (UTC), by block time, on invoices and links. */
  receivedThisMonth: bigint;
  /** Still due on sent, partly paid (and overdue) invoices. */
  outstanding: bigint;
  outstandingCount: number;
  overdue: bigint;
  overdueCount: number;
};

/** The overview's figures of one merchant; `today` is YYYY-MM-DD (UTC). */
export async function merchantOverview(
  db: Executor,
  indexerSchema: string,
  merchantId: string,
  today: string,
): Promise<Overview> {
  const due = await db
    .selectFrom("app.invoices as i")
    .leftJoin("app.payment_state as p", "p.deposit_address", "i.deposit_address")
    .select([
      sql<string>`coalesce(sum(greatest(i.total_amount - coalesce(p.received, 0), 0)), 0)::text`.as(
        "outstanding",
      ),
      sql<string>`count(*)::text`.as("outstanding_count"),
      sql<string>`coalesce(sum(greatest(i.total_amount - coalesce(p.received, 0), 0)) filter (where i.status in ('draft', 'sent') and i.due_date < ${today}), 0)::text`.as(
        "overdue",
      ),
      sql<string>`(count(*) filter (where i.status in ('draft', 'sent') and i.due_date < ${today}))::text`.as(
        "overdue_count",
      ),
    ])
    .where("i.merchant_id", "=", merchantId)
    .where("i.status", "in", ["sent", "partial", "draft"])
    .executeTakeFirstOrThrow();
  const monthStart = `${today.slice(0, 7)}-01`;
  const received = (await tableExists(db, `${indexerSchema}.usdc_transfer`))
    ? await sql<{ total: string }>`
        select coalesce(sum(t.value), 0)::text as total
        from app.payment_state p
        join ${sql.table(`${indexerSchema}.usdc_transfer`)} t on t.id = any(p.counted)
        where p.deposit_address in (${merchantAddresses(merchantId)})
          and t.timestamp >= extract(epoch from ${monthStart}::date)`.execute(db)
    : { rows: [{ total: "0" }] };
  return {
    receivedThisMonth: BigInt(received.rows[0]?.total ?? "0"),
    outstanding: BigInt(due.outstanding),
    outstandingCount: Number(due.outstanding_count),
    overdue: BigInt(due.overdue),
    overdueCount: Number(due.overdue_count),
  };
}

const merchantAddresses = (merchantId: string) => sql`
  select deposit_address from app.invoices where merchant_id = ${merchantId}
  union all select deposit_address from app.payment_links where merchant_id = ${merchantId}`;

async function tableExists(db: Executor, name: string): Promise<boolean> {
  const { rows } = await sql<{
    ok: boolean;
  }>`select to_regclass(${name}) is not null as ok`.execute(db);
  return rows[0]?.ok ?? false;
}

export type DashboardPayment = {
  transferId: string;
  txHash: string;
  from: string;
  value: bigint;
  paidAt: Date;
  invoiceId: string | null;
  invoiceNumber: string | null;
  linkSlug: string | null;
  linkDescription: string | null;
};

/** One page of the merchant's counted payments (invoices and links), newest first. */
export async function listMerchantPayments(
  db: Executor,
  indexerSchema: string,
  merchantId: string,
  page: { limit: number; offset: number },
): Promise<DashboardPayment[]> {
  if (!(await tableExists(db, `${indexerSchema}.usdc_transfer`))) return [];
  const { rows } = await sql<{
    id: string;
    tx_hash: string;
    from: string;
    value: string;
    timestamp: string;
    invoice_id: string | null;
    invoice_number: string | null;
    link_slug: string | null;
    link_description: string | null;
  }>`
    select t.id, t.tx_hash, t."from", t.value::text, t.timestamp::text,
      i.id as invoice_id, i.invoice_number, l.slug as link_slug, l.description as link_description
    from app.payment_state p
    join ${sql.table(`${indexerSchema}.usdc_transfer`)} t on t.id = any(p.counted)
    left join app.invoices i on i.deposit_address = p.deposit_address and i.merchant_id = ${merchantId}
    left join app.payment_links l on l.deposit_address = p.deposit_address and l.merchant_id = ${merchantId}
    where i.id is not null or l.id is not null
    order by t.block_number desc, t.log_index desc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => ({
    transferId: row.id,
    txHash: row.tx_hash,
    from: row.from,
    value: BigInt(row.value),
    paidAt: new Date(Number(row.timestamp) * 1000),
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    linkSlug: row.link_slug,
    linkDescription: row.link_description,
  }));
}

export type InvoiceListRow = InvoiceRow & { received: bigint };

export type InvoiceFilter = {
  /** A reported status (`overdue` included) or none. */
  status?: string;
  /** Matched against the number, the vendor's name and email, and the notes. */
  search?: string;
  today: string;
  limit: number;
  offset: number;
};

/** One page of the merchant's invoices, newest first, with what each has received. */
export async function listMerchantInvoices(
  db: Executor,
  merchantId: string,
  filter: InvoiceFilter,
): Promise<InvoiceListRow[]> {
  let query = db
    .selectFrom("app.invoices as i")
    .leftJoin("app.payment_state as p", "p.deposit_address", "i.deposit_address")
    .selectAll("i")
    .select(sql<string>`coalesce(p.received, 0)::text`.as("received_text"))
    .where("i.merchant_id", "=", merchantId);
  const { status, search, today } = filter;
  if (status === "overdue")
    query = query.where("i.status", "in", ["draft", "sent"]).where("i.due_date", "<", today);
  else if (status === "draft" || status === "sent")
    query = query.where("i.status", "=", status).where("i.due_date", ">=", today);
  else if (status) query = query.where(sql<string>`i.status::text`, "=", status);
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb("i.invoice_number", "ilike", like),
        eb("i.vendor_name", "ilike", like),
        eb("i.vendor_email", "ilike", like),
        eb("i.notes", "ilike", like),
      ]),
    );
  }
  const rows = await query
    .orderBy("i.created_at", "desc")
    .orderBy("i.id", "desc")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return rows.map(({ received_text, ...row }) => ({ ...row, received: BigInt(received_text) }));
}

export type LinkListRow = LinkRow & { received: bigint };

/** One page of the merchant's payment links, newest first. */
export async function listMerchantLinks(
  db: Executor,
  merchantId: string,
  page: { limit: number; offset: number },
): Promise<LinkListRow[]> {
  const rows = await db
    .selectFrom("app.payment_links as l")
    .leftJoin("app.payment_state as p", "p.deposit_address", "l.deposit_address")
    .selectAll("l")
    .select(sql<string>`coalesce(p.received, 0)::text`.as("received_text"))
    .where("l.merchant_id", "=", merchantId)
    .orderBy("l.created_at", "desc")
    .orderBy("l.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(({ received_text, ...row }) => ({ ...row, received: BigInt(received_text) }));
}

/** The merchant's link `slug`, or undefined (another merchant's too). */
export async function findMerchantLink(
  db: Executor,
  merchantId: string,
  slug: string,
): Promise<LinkRow | undefined> {
  return db
    .selectFrom("app.payment_links")
    .selectAll()
    .where("slug", "=", slug)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** The emails about an invoice (to the vendor, payment notices, sweep failures), oldest first. */
export async function findInvoiceEmails(db: Executor, invoiceId: string) {
  return db
    .selectFrom("app.emails")
    .select([
      "id",
      "kind",
      "recipient",
      "status",
      "attempts",
      "sent_at",
      "last_error",
      "created_at",
    ])
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .execute();
}

/** The invoice's audit entries (created, sent, redeliveries…), oldest first. */
export async function findInvoiceAudit(db: Executor, merchantId: string, invoiceId: string) {
  return db
    .selectFrom("app.audit_log")
    .select(["id", "actor", "action", "target", "created_at"])
    .where("merchant_id", "=", merchantId)
    .where("target", "=", invoiceId)
    .orderBy("id")
    .execute();
}
