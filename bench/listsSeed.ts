import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

/** How much one merchant gets: invoices, counted payments (spread over its paid invoices), links. */
export type MerchantVolume = { invoices: number; payments: number; links: number };

/**
 * Seeds invoices (one or two line items each), payments and payment links for each merchant,
 * straight into Postgres with set-based `INSERT … SELECT generate_series` (a benchmark seed:
 * 100,000 invoices take seconds, not the hours the API would). Rows look like the API's:
 * numbers follow the merchant's counter (which is moved on, so the API can go on numbering),
 * statuses cycle through every stored one, issue dates up to 50 days back with 30 days to pay
 * (so some are overdue), and creation times run back a minute per pair (every two rows share one moment, so
 * lists tie-break on id). Each call uses addresses of its own, so it may run again.
 */
export async function seedMerchantVolume(
  db: Db,
  merchantIds: readonly string[],
  volume: MerchantVolume,
): Promise<void> {
  const tag = randomBytes(4).toString("hex");
  const ids = sql`${`{${merchantIds.join(",")}}`}::uuid[]`;
  await db.transaction().execute(async (trx) => {
    // Each merchant's counter, before; moved on by the number of invoices seeded.
    await sql`
      create temporary table seed_merchants on commit drop as
      select m.id, m.last_invoice_number as first, row_number() over (order by m.id) as ord
      from app.merchants m where m.id = any(${ids})`.execute(trx);
    await sql`
      update app.merchants set last_invoice_number = last_invoice_number + ${volume.invoices}
      where id = any(${ids})`.execute(trx);
    await sql`
      insert into app.deposit_addresses (address)
      select '0x' || ${tag} || lpad(to_hex(m.ord * 100000000 + g.n), 32, '0')
      from seed_merchants m cross join generate_series(1, ${volume.invoices + volume.links}) g(n)`.execute(
      trx,
    );
    await sql`
      insert into app.invoices (merchant_id, invoice_number, slug, merchant_email,
        merchant_name_snapshot, merchant_address_snapshot, vendor_email, vendor_name, issue_date,
        due_date, wallet_type, wallet_address, deposit_address, total_amount, status, sent_at, created_at)
      select m.id, 'INV-' || lpad((m.first + g.n)::text, greatest(4, length((m.first + g.n)::text)), '0'), 'b' || ${tag} || m.ord || 'i' || g.n,
        'bench-' || m.ord || '@example.com', 'Bench Merchant ' || m.ord, '1 Bench Street',
        'billing' || (g.n % 997) || '@vendor' || (g.n % 997) || '.example', 'Vendor ' || (g.n % 997),
        t.created::date - g.n % 50, t.created::date - g.n % 50 + 30, 'byo', '0x' || lpad(to_hex(m.ord), 40, '0'),
        '0x' || ${tag} || lpad(to_hex(m.ord * 100000000 + g.n), 32, '0'),
        ((g.n * 7919) % 100000 + 1) * 10000,
        s.status, case when s.status = 'draft' then null else t.created end, t.created
      from seed_merchants m
      cross join generate_series(1, ${volume.invoices}) g(n)
      cross join lateral (select now() - ((${volume.invoices} - g.n) / 2) * interval '1 minute' as created) t
      cross join lateral (select (array['sent', 'sent', 'sent', 'draft', 'paid', 'paid', 'partial', 'excess', 'sent', 'paid'])[g.n % 10 + 1] as status) s`.execute(
      trx,
    );
    // One line item, or two for every fourth invoice (halves of the total).
    await sql`
      insert into app.invoice_line_items (invoice_id, position, description, quantity, unit_price, line_total)
      select i.id, 0, 'Consulting, project ' || (i.total_amount % 89), 1,
        case when (i.total_amount / 10000) % 4 = 0 then i.total_amount / 2 else i.total_amount end,
        case when (i.total_amount / 10000) % 4 = 0 then i.total_amount / 2 else i.total_amount end
      from app.invoices i where i.deposit_address like ${`0x${tag}%`}`.execute(trx);
    await sql`
      insert into app.invoice_line_items (invoice_id, position, description, quantity, unit_price, line_total)
      select i.id, 1, 'Hosting, "premium" plan', 1, i.total_amount - i.total_amount / 2, i.total_amount - i.total_amount / 2
      from app.invoices i where i.deposit_address like ${`0x${tag}%`} and (i.total_amount / 10000) % 4 = 0`.execute(
      trx,
    );
    await sql`
      insert into app.payment_links (id, slug, merchant_id, merchant_email, amount, description,
        wallet_type, wallet_address, deposit_address, status, created_at)
      select gen_random_uuid(), 'b' || ${tag} || m.ord || 'l' || g.n, m.id, 'bench-' || m.ord || '@example.com',
        ((g.n * 104729) % 50000 + 1) * 10000, 'Order #' || g.n, 'byo', '0x' || lpad(to_hex(m.ord), 40, '0'),
        '0x' || ${tag} || lpad(to_hex(m.ord * 100000000 + ${volume.invoices} + g.n), 32, '0'),
        (array['pending', 'confirmed', 'partial', 'excess'])[g.n % 4 + 1],
        now() - g.n * interval '1 minute'
      from seed_merchants m cross join generate_series(1, ${volume.links}) g(n)`.execute(trx);
    // The payments: spread over each merchant's paid, partial and excess invoices.
    await sql`
      insert into app.payments (id, merchant_id, deposit_address, invoice_id, payer, amount, tx_hash,
        log_index, block_number, block_time)
      select '0x' || md5(${tag} || p.invoice_id::text || k.k::text) || md5(k.k::text || p.invoice_id::text) || '-' || k.k,
        p.merchant_id, p.deposit_address, p.invoice_id, '0x' || lpad(to_hex(p.rn % 5000 + 1), 40, '0'),
        p.total_amount / p.per, '0x' || md5(${tag} || p.invoice_id::text || k.k::text) || md5(k.k::text || p.invoice_id::text),
        k.k, 1000000 + p.rn * 10 + k.k, p.created_at + (k.k + 1) * interval '7 seconds'
      from (
        select i.id as invoice_id, i.merchant_id, i.deposit_address, i.total_amount, i.created_at,
          row_number() over (partition by i.merchant_id order by i.created_at, i.id) as rn,
          greatest(1, ceil(${volume.payments}::numeric / nullif(count(*) over (partition by i.merchant_id), 0)))::int as per
        from app.invoices i
        where i.deposit_address like ${`0x${tag}%`} and i.status in ('paid', 'partial', 'excess')
      ) p
      cross join lateral generate_series(0, p.per - 1) k(k)
      where (p.rn - 1) * p.per + k.k < ${volume.payments}`.execute(trx);
    await sql`
      insert into app.payment_state (deposit_address, invoice_id, received, counted, updated_at)
      select p.deposit_address, p.invoice_id, sum(p.amount), array_agg(p.id order by p.id), now()
      from app.payments p where p.deposit_address like ${`0x${tag}%`}
      group by p.deposit_address, p.invoice_id`.execute(trx);
  });
  await sql`analyze app.invoices, app.invoice_line_items, app.invoice_search, app.payments, app.payment_links, app.payment_state`.execute(
    db,
  );
}
